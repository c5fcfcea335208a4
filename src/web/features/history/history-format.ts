import { PROVIDER_LABELS, SOURCE_TYPE_LABELS } from '../../../core/fees';

export const HISTORY_MESSAGES = {
  loadFailed: 'Failed to load history',
  detailFailed: 'Failed to load this combine',
} as const;

export const HISTORY_RANGES = [
  { value: 'all', label: 'All' },
  { value: '1m', label: 'Last 30 Days' },
  { value: '7d', label: 'Last 7 Days' },
] as const;

const CARD_STATUS_LABELS: Record<string, string> = { active: 'Active', cashed_out: 'Cashed Out', expired: 'Expired', closed: 'Closed' };

export const cardStatusLabel = (status: string, frozen = false) => `${CARD_STATUS_LABELS[status] ?? status}${frozen ? ' · Frozen' : ''}`;

export function providerLabel(type: string, provider: string): string {
  if (type === 'internal') return 'PayWeave card';
  return PROVIDER_LABELS[provider as keyof typeof PROVIDER_LABELS] ?? provider;
}

export function sourceTypeLabel(type: string): string {
  if (type === 'internal') return 'Card balance';
  return SOURCE_TYPE_LABELS[type as keyof typeof SOURCE_TYPE_LABELS] ?? type;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string | null) => (iso ? dateTimeFormat.format(new Date(iso)) : '—');
