import type { ButtonHTMLAttributes } from 'react';

interface SubmitButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** While true the button is disabled and shows a spinner. */
  busy?: boolean;
}

export function SubmitButton({ busy = false, disabled, children, className, ...rest }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className={['button button--primary button--block', className].filter(Boolean).join(' ')}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="spinner spinner--button" aria-hidden="true" />}
      <span>{children}</span>
    </button>
  );
}
