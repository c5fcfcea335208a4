import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'success' | 'error' | 'warning' | 'info' | 'brand';

/** A short status label. The text carries the meaning; the colour only repeats it. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={tone === 'neutral' ? 'badge' : `badge badge--${tone}`}>{children}</span>;
}

const STATUS_TONES: Record<string, BadgeTone> = {
  active: 'success',
  completed: 'success',
  success: 'success',
  processed: 'success',
  cashed_out: 'neutral',
  expired: 'warning',
  incomplete: 'info',
  in_progress: 'info',
  processing: 'info',
  pending: 'warning',
  failed: 'error',
};

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  completed: 'Completed',
  success: 'Success',
  processed: 'Processed',
  cashed_out: 'Cashed Out',
  expired: 'Expired',
  incomplete: 'Saved',
  in_progress: 'In Progress',
  processing: 'Processing',
  pending: 'Pending',
  failed: 'Failed',
};

/** The badge for a card, combine, rebate or transaction status as the API spells it. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{STATUS_LABELS[status] ?? status}</Badge>;
}
