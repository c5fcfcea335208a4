import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import type { LinkProps } from 'react-router';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'accent';
export type ButtonSize = 'sm' | 'md' | 'lg';

type StyleProps = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
};

export function buttonClassName({ variant = 'primary', size = 'md', block = false }: StyleProps, extra?: string) {
  return ['btn', `btn-${variant}`, size === 'md' ? '' : `btn-${size}`, block ? 'btn-block' : '', extra ?? '']
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  StyleProps & {
    /** While true the button is disabled and reads 'Processing...' (docs/rules.md#screens). */
    loading?: boolean;
    /** What the button says while loading; the spec's wording by default. */
    loadingText?: string;
    children: ReactNode;
  };

export function Button({
  variant,
  size,
  block,
  loading = false,
  loadingText = 'Processing...',
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      // A default of 'button' keeps a stray button inside a form from submitting it.
      type={type}
      className={buttonClassName({ variant, size, block }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? (
        <>
          <span className="btn-spinner" aria-hidden="true" />
          {loadingText}
        </>
      ) : (
        children
      )}
    </button>
  );
}

type ButtonLinkProps = LinkProps & StyleProps;

/** A link that looks like a button: for navigation, never for actions. */
export function ButtonLink({ variant, size, block, className, ...rest }: ButtonLinkProps) {
  return <Link {...rest} className={buttonClassName({ variant, size, block }, className)} />;
}
