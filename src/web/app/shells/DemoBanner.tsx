import { usePublicConfig } from '../../lib/public-config';
import { Icon } from '../../ui/Icon';

const DEMO_BANNER_TEXT = 'Demo Mode: No real transactions are being processed';

/** docs/rules.md#demo-mode: the banner every screen shows while the server runs in demo mode. */
export function DemoBanner() {
  const { demoMode, isLoading } = usePublicConfig();
  // Until /api/config answers, the banner's space is kept (invisible, so it claims nothing):
  // demo mode is the default, and the page must not jump down when the answer arrives.
  if (isLoading) {
    return (
      <p className="demo-banner demo-banner--pending" aria-hidden="true">
        <Icon name="alertTriangle" />
        <span>{DEMO_BANNER_TEXT}</span>
      </p>
    );
  }
  if (!demoMode) return null;
  return (
    <p className="demo-banner">
      <Icon name="alertTriangle" />
      <span>{DEMO_BANNER_TEXT}</span>
    </p>
  );
}
