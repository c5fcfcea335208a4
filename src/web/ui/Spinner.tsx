type SpinnerProps = {
  /** Read by screen readers; shown beside the circle when `showLabel` is set. */
  label?: string;
  showLabel?: boolean;
  size?: 'sm' | 'md';
};

export function Spinner({ label = 'Loading', showLabel = false, size = 'md' }: SpinnerProps) {
  return (
    <span className={size === 'sm' ? 'spinner spinner--sm' : 'spinner'} role="status">
      <span className="spinner-circle" aria-hidden="true" />
      <span className={showLabel ? 'spinner-text' : 'visually-hidden'}>{label}</span>
    </span>
  );
}
