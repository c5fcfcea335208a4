import { Link, useRouteError } from 'react-router';

// A lazy chunk that fails to load (deploy in between, flaky network) lands here instead of a blank page.
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main className="page-center">
      <div role="alert">
        <h1>Something went wrong</h1>
        <p>This page could not be loaded. Reload to try again.</p>
        <p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>{' '}
          <Link to="/">Go to the home page</Link>
        </p>
      </div>
    </main>
  );
}
