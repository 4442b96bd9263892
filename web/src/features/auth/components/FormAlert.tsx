import type { ReactNode } from 'react';

interface FormAlertProps {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
}

/** A message for the whole form. Errors are announced at once (role=alert), the rest politely. */
export function FormAlert({ tone = 'error', children }: FormAlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
