import * as Tabs from '@radix-ui/react-tabs';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { ErrorState } from '../../ui/ErrorState';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../../lib/session';
import { PayoutMethodsPanel } from './PayoutMethodsPanel';
import { SubscriptionPanel } from './SubscriptionPanel';
import { ProfileTab } from './components/ProfileTab';
import { PromotionTab } from './components/PromotionTab';
import { SecurityTab } from './components/SecurityTab';
import { DevelopersTab } from './components/developers/DevelopersTab';
import './settings.css';

// docs/rules.md#screens /settings: side tabs in this order. The open tab is in the address (?tab=security),
// so a link can open it and the back button returns to the previous one.
const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'payout-methods', label: 'Payout Methods' },
  { value: 'subscription', label: 'Subscription' },
  { value: 'promotion', label: 'Promotion Status' },
  { value: 'security', label: 'Security' },
  // Webhooks (docs/rules.md#webhooks): last, for the few who build on the API.
  { value: 'developers', label: 'Developers' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

export default function SettingsPage() {
  const { profile, isLoading, error, refetch } = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'profile';

  let body;
  if (isLoading) {
    body = (
      <div className="page-center">
        <Spinner label="Loading account settings" showLabel />
      </div>
    );
  } else if (!profile) {
    body = (
      <ErrorState
        title="Failed to load account settings"
        message={errorMessage(error, 'Failed to load account settings')}
        onRetry={() => void refetch()}
      />
    );
  } else {
    body = (
      <Tabs.Root
        className="settings-tabs"
        orientation="vertical"
        value={tab}
        onValueChange={(value) => setParams(value === 'profile' ? {} : { tab: value }, { replace: false })}
      >
        <Tabs.List className="settings-tab-list" aria-label="Account settings">
          {TABS.map((item) => (
            <Tabs.Trigger key={item.value} value={item.value} className="settings-tab">
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="profile" className="settings-tab-panel">
          <ProfileTab profile={profile} />
        </Tabs.Content>
        <Tabs.Content value="payout-methods" className="settings-tab-panel">
          <PayoutMethodsPanel profile={profile} />
        </Tabs.Content>
        <Tabs.Content value="subscription" className="settings-tab-panel">
          <SubscriptionPanel />
        </Tabs.Content>
        <Tabs.Content value="promotion" className="settings-tab-panel">
          <PromotionTab profile={profile} />
        </Tabs.Content>
        <Tabs.Content value="security" className="settings-tab-panel">
          <SecurityTab />
        </Tabs.Content>
        <Tabs.Content value="developers" className="settings-tab-panel">
          <DevelopersTab />
        </Tabs.Content>
      </Tabs.Root>
    );
  }

  return (
    <section className="page">
      <PageHeader title="Account Settings" description="Your e-mail, password, payout methods, plan, promotions and webhooks." />
      {body}
    </section>
  );
}
