import type { UserProfile } from '@sparks/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { api } from '../../api/client';
import { serverMessage } from '../../api/serverMessage';
import { browserTimeZone, timeZoneChoices, timeZoneLabel } from '../account/timeZone';
import { useProfile } from '../account/useProfile';
import { Dialog } from '../../ui/Dialog';
import { MailIcon } from '../../ui/icons';
import './profile.css';

/**
 * The profile's "Weekly e-mail" (issue 35 item 4): a header button showing whether the weekly summary is on, and a
 * dialog to turn it on or off and to choose the time zone its Monday morning is in (PATCH /account/profile
 * `{ weeklyDigest, timeZone }`).
 */
export function DigestSettings() {
  const { t } = useTranslation('privacy');
  const { data: profile, mutate } = useProfile();
  const [open, setOpen] = useState(false);
  if (!profile) return null;
  return (
    <>
      <button
        type="button"
        className="chip-button"
        data-testid="digest-open"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <MailIcon size={18} />
        <span>{t('digest.open')}</span>{' '}
        <span className={`digest-open__status${profile.weeklyDigest ? ' digest-open__status--on' : ''}`}>
          {profile.weeklyDigest ? t('digest.on') : t('digest.off')}
        </span>
      </button>
      {open && (
        <DigestDialog
          profile={profile}
          onClose={() => setOpen(false)}
          onSaved={(saved) => {
            void mutate(saved, { revalidate: false });
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

interface DigestDialogProps {
  profile: UserProfile;
  onClose: () => void;
  onSaved: (profile: UserProfile) => void;
}

/** The form: the weekly summary on or off with what it holds, the time zone, and the server's answer when it refuses. */
function DigestDialog({ profile, onClose, onSaved }: DigestDialogProps) {
  const { t } = useTranslation('privacy');
  const ids = useId();
  const [weeklyDigest, setWeeklyDigest] = useState(profile.weeklyDigest);
  const [timeZone, setTimeZone] = useState(() => profile.timeZone ?? browserTimeZone() ?? 'UTC');
  const [zones] = useState(() => timeZoneChoices(timeZone));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      onSaved(await api.patch<UserProfile>('/account/profile', { weeklyDigest, timeZone }));
    } catch (cause) {
      setError(serverMessage(cause) ?? t('digest.failed'));
      setSaving(false);
    }
  };

  const hintId = `${ids}-hint`;
  const zoneId = `${ids}-zone`;
  const zoneHintId = `${ids}-zone-hint`;
  const errorId = `${ids}-error`;
  return (
    <Dialog
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t('digest.title')}
      description={t('digest.description', { email: profile.email })}
    >
      <form className="digest-settings" onSubmit={(event) => void submit(event)} noValidate>
        <div className="digest-settings__field">
          <label className="digest-settings__toggle">
            <input
              type="checkbox"
              role="switch"
              checked={weeklyDigest}
              disabled={saving}
              aria-describedby={hintId}
              onChange={(event) => {
                setWeeklyDigest(event.target.checked);
                setError(null);
              }}
            />
            <span>{t('digest.toggle')}</span>
          </label>
          <p id={hintId} className="digest-settings__hint">
            {t('digest.hint')}
          </p>
        </div>
        <div className="digest-settings__field">
          <label htmlFor={zoneId}>{t('digest.timeZone')}</label>
          <select
            id={zoneId}
            value={timeZone}
            disabled={saving}
            aria-invalid={error ? true : undefined}
            aria-describedby={[zoneHintId, error ? errorId : null].filter(Boolean).join(' ')}
            onChange={(event) => {
              setTimeZone(event.target.value);
              setError(null);
            }}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {timeZoneLabel(zone)}
              </option>
            ))}
          </select>
          <p id={zoneHintId} className="digest-settings__hint">
            {t('digest.timeZoneHint')}
          </p>
        </div>
        {error && (
          <p id={errorId} className="digest-settings__error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" disabled={saving} onClick={onClose}>
            {t('digest.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving || undefined}>
            {saving && <span className="spinner spinner--button" aria-hidden="true" />}
            {t('digest.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
