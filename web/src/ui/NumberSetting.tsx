import type { DeploymentView } from '@sparks/contracts';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';

import { isApiError } from '../api/client';
import { serverMessage } from '../api/serverMessage';

export interface NumberSettingProps {
  /** A change of Spark shows its own number and drops the last one's message. */
  sparkId: string;
  testId: string;
  texts: { title: string; hint: string; label: string; save: string; range: string };
  min: number;
  max: number;
  /** The saved number (undefined while the deployment's view loads). */
  current: number | undefined;
  /** Sends the number; answers the deployment's view as saved. */
  save: (value: number) => Promise<DeploymentView>;
  /** What is said once saved. */
  saved: (view: DeploymentView) => string;
  onSaved: (view: DeploymentView) => void;
  /** Shown under the field (e.g. how much of it was used today). */
  children?: ReactNode;
}

/**
 * One number of a Spark's deployment set on /deploy (the visitors' retention days, the widget's daily limit): its
 * field and Save (enabled once changed), the server's refusal next to the field in the user's language, and what
 * was saved said politely.
 */
export function NumberSetting({
  sparkId,
  testId,
  texts,
  min,
  max,
  current,
  save,
  saved,
  onSaved,
  children,
}: NumberSettingProps) {
  const ids = { input: useId(), message: useId() };
  const [value, setValue] = useState(current === undefined ? '' : String(current));
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setMessage(null), [sparkId]);
  useEffect(() => {
    if (current !== undefined) setValue(String(current));
  }, [sparkId, current]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const next = await save(Number(value));
      onSaved(next);
      setMessage({ tone: 'ok', text: saved(next) });
    } catch (error) {
      setMessage({ tone: 'error', text: serverMessage(error) ?? (isApiError(error) ? error.message : texts.range) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="deploy-panel__block" data-testid={testId}>
      <h2>{texts.title}</h2>
      <p className="deploy-panel__hint">{texts.hint}</p>
      <form className="deploy-panel__row" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={ids.input}>{texts.label}</label>
        <input
          id={ids.input}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={value}
          className="deploy-panel__days"
          aria-invalid={message?.tone === 'error' ? true : undefined}
          aria-describedby={message ? ids.message : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setMessage(null);
          }}
        />
        <button type="submit" disabled={busy || value === String(current)} aria-busy={busy || undefined}>
          {texts.save}
        </button>
      </form>
      {children}
      {message && (
        <p
          id={ids.message}
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'deploy-panel__error deploy-panel__field-error' : 'deploy-panel__hint'}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
