import { formatUsd } from '../../core/money';

type MoneyProps = {
  /** Integer cents (docs/rules.md#money-cents). */
  cents: number;
  /** Show a leading '+' for positive amounts, e.g. a rebate. */
  signed?: boolean;
  className?: string;
};

/** An amount of money, formatted en-US USD from integer cents; negative amounts in red. */
export function Money({ cents, signed = false, className }: MoneyProps) {
  const text = signed && cents > 0 ? `+${formatUsd(cents)}` : formatUsd(cents);
  const classes = ['money', cents < 0 ? 'money--negative' : '', className ?? ''].filter(Boolean).join(' ');
  return <span className={classes}>{text}</span>;
}
