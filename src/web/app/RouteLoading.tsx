import { Spinner } from '../ui/Spinner';

/**
 * What the router shows while the first page's lazy chunk loads (its HydrateFallback). Without
 * one the screen stays blank and React Router warns on every first load. The same spinner as the
 * session check that follows, so a signed-in page does not flash two different loaders.
 */
export function RouteLoading() {
  return (
    <div className="page-center">
      <Spinner label="Loading" />
    </div>
  );
}
