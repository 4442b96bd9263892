import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string | null;
  details?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled checkbox with an optional line of details and an error, wired like {@link Field}. */
export function Checkbox({ label, error, details, id, ref, ...input }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const detailsId = `${inputId}-details`;
  const describedBy = [error ? errorId : null, details ? detailsId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'check check--invalid' : 'check'}>
      <div className="check__row">
        <input
          ref={ref}
          id={inputId}
          type="checkbox"
          className="check__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        <label className="check__label" htmlFor={inputId}>
          {label}
        </label>
      </div>
      {details && (
        <p id={detailsId} className="check__details">
          {details}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          <svg className="field__error-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <circle cx="8" cy="8" r="7" fill="currentColor" />
            <path d="M8 4.2v4.6M8 11.2v.2" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}
