import { usePublicConfig } from '../../lib/public-config';
import { Icon } from '../../ui/Icon';

/** Spec §1: the banner every screen shows while the server runs in demo mode. */
export function DemoBanner() {
  const { demoMode } = usePublicConfig();
  if (!demoMode) return null;
  return (
    <p className="demo-banner">
      <Icon name="alertTriangle" />
      <span>Demo Mode: No real transactions are being processed</span>
    </p>
  );
}
