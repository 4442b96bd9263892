import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The message under the input; marks it aria-invalid and describes it. */
  error?: string | null;
  /** Help under the input, also part of its description. */
  hint?: ReactNode;
  /** Something inside the input box, at its end (the show-password toggle). */
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and error, wired for screen readers (aria-invalid, aria-describedby). */
export function Field({ label, error, hint, trailing, id, ref, className, ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'field--invalid' : null, className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className={trailing ? 'field__box field__box--trailing' : 'field__box'}>
        <input
          ref={ref}
          id={inputId}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {trailing}
      </div>
      {error && (
        <p id={errorId} className="field__error">
          <svg className="field__error-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <circle cx="8" cy="8" r="7" fill="currentColor" />
            <path d="M8 4.2v4.6M8 11.2v.2" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          <span>{error}</span>
        </p>
      )}
      {hint && (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      )}
    </div>
  );
}
