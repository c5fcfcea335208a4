import { useEffect, useState } from 'react';
import { PLANS } from '../../../core/plans';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { useSession } from '../../lib/session';
import './upgrade.css';

/** docs/rules.md#screens: the ad can be closed after 3 s and goes away by itself after 15 s. */
export const AD_CLOSABLE_AFTER_S = 3;
export const AD_VISIBLE_FOR_S = 15;

/**
 * The Free plan's ad (paid plans have none, docs/rules.md#plans). docs/rules.md#screens places it on /upgrade. A house ad
 * for the paid plans: nothing from a third party is loaded.
 */
export function AdBanner() {
  const { profile } = useSession();
  if (!profile || !PLANS[profile.subscription].showsAds) return null;
  return <AdBannerTimer />;
}

function AdBannerTimer() {
  const [elapsedS, setElapsedS] = useState(0);
  const [closed, setClosed] = useState(false);
  const visible = !closed && elapsedS < AD_VISIBLE_FOR_S;
  // One interval for the banner's life: it keeps counting even if a render is late.
  useEffect(() => {
    if (!visible) return;
    const timer = setInterval(() => setElapsedS((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [visible]);
  if (!visible) return null;
  const closable = elapsedS >= AD_CLOSABLE_AFTER_S;
  return (
    <aside className="ad-banner" aria-label="Advertisement" data-testid="ad-banner">
      <span className="ad-banner-label">Ad</span>
      <p className="ad-banner-text">
        Go ad-free with <strong>Premium</strong>: half the fees, PayPal payouts and 10 combines a month.
      </p>
      <Button
        variant="ghost"
        size="sm"
        className="ad-banner-close"
        disabled={!closable}
        onClick={() => setClosed(true)}
        aria-label={closable ? 'Close ad' : `Close ad (possible in ${AD_CLOSABLE_AFTER_S - elapsedS} s)`}
      >
        {closable ? <Icon name="x" size={18} /> : <span aria-hidden="true">{AD_CLOSABLE_AFTER_S - elapsedS}</span>}
      </Button>
    </aside>
  );
}
