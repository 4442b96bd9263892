import { useId } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';

import { greetingName } from '../../account/profile';
import { useProfile } from '../../account/useProfile';
import { fetchSparks } from '../../sparks/api';
import { sparksListKey, type SparksListKey } from '../../sparks/keys';
import { useChatActions } from './chatActions';

/** GET /sparks?page=1&limit=1: the newest Spark by createdAt (the list is newest first). */
const NEWEST = sparksListKey({ page: 1, limit: 1 });

/**
 * docs/product.md §2 chat home welcome bubble: "Hi {first name, else the username before @}, what would you like to do?" with
 * change Spark (the newest, only when there is one), create Spark, change my info and "I have a question",
 * which sends the canned question into the chat it sits in.
 */
export function WelcomeBubble() {
  const { t } = useTranslation('chat');
  const id = useId();
  const { send, busy } = useChatActions();
  const { data: profile } = useProfile();
  const { data: sparks } = useSWR(NEWEST, ([, args]: SparksListKey) => fetchSparks(args.page, args.limit));
  const newest = sparks?.items[0];
  const name = greetingName(profile);

  return (
    <section className="welcome-bubble" aria-labelledby={`${id}-greeting`}>
      <h2 id={`${id}-greeting`} className="welcome-bubble__greeting">
        {name ? t('welcome.greeting', { name }) : t('welcome.greetingNoName')}
      </h2>
      <div className="welcome-bubble__actions" role="group" aria-label={t('welcome.actions')}>
        {newest && (
          <Link className="button button--secondary welcome-bubble__action" to={`/spark/${newest._id}`}>
            <span>{t('welcome.changeSpark', { name: newest.name })}</span>
          </Link>
        )}
        <Link className="button button--secondary welcome-bubble__action" to="/new-spark">
          <span>{t('welcome.createSpark')}</span>
        </Link>
        <Link className="button button--secondary welcome-bubble__action" to="/profile">
          <span>{t('welcome.changeInfo')}</span>
        </Link>
        <button
          type="button"
          className="button button--ghost welcome-bubble__action"
          disabled={busy}
          onClick={() => void send(t('welcome.questionText'))}
        >
          <span>{t('welcome.question')}</span>
        </button>
      </div>
    </section>
  );
}
