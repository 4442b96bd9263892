import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';

import { useNavigate } from '../../../lib/router';
import { lazyComponent, whenIdle } from '../../../ui/lazyComponent';
import { billingDialogs } from '../../account/billingDialogs';
import { useOpenPlans } from '../../account/useOpenPlans';
import { PROFILE_KEY, useProfile } from '../../account/useProfile';
import { testsKey } from '../../sparks/keys';
import { isApiError } from '../../../api/client';
import { toLanguage } from '../../../i18n';
import {
  authorizeIntegration,
  disconnectIntegration,
  getIntegrations,
  listDocuments,
  listTests,
  keepAnswerAsCheck,
  rateTestAnswer,
  setDocumentTitle,
} from '../api';
import { documentIdOf, toDisplayItems } from '../display';
import { useChat, type SendProblem } from '../hooks/useChat';
import { useDocumentUpload } from '../hooks/useDocumentUpload';
import { targetKey, type ChatMessage, type ChatTarget, type Choice } from '../types';
import { checkUpload, DOCUMENT_POLL_MS, UPLOAD_ACCEPT } from '../upload';
import { AttachMenu, SERVICE_NAMES, type SharingService } from './AttachMenu';
import { ChatActionsContext } from './chatActions';
import type { ChatDialogsProps, ChatProblem } from './ChatDialogs';
import { Composer, type ComposerHandle } from './Composer';
import type { KeepAnswer, RateAnswer } from './AnswerRating';
import { MessageList } from './MessageList';
import '../chat.css';

export type { ChatTarget } from '../types';

export interface ChatPanelProps {
  target: ChatTarget;
  /** When the conversation has no history, start it with 'inicio' (never shown). */
  autoStart?: boolean;
  /** Sent as the first message (e.g. /deploy?q=…). */
  initialText?: string;
  /** When the assistant last spoke longer ago than this, a fresh welcome (docs/product.md §4, /deploy: 24 h). */
  freshAfterMs?: number;
  /** After each reply lands, and when a Spark or a test was created. */
  onMessages?: () => void;
  className?: string;
  /** Shown above the conversation (the chat home's welcome bubble); it may use `useChatActions`. */
  welcome?: ReactNode;
  /**
   * When it changes, the conversation is read again in place (a message the worker posted meanwhile: the answer
   * checks that changed, issue 35); the first value is only remembered.
   */
  refreshOn?: string | null;
}

/** docs/product.md §2: the attach menu offers "Connect document-sharing" only on the zaphire plan. */
function isZaphire(productName: string | null | undefined): boolean {
  return (productName ?? '').trim().toLowerCase() === 'zaphire';
}

/** A goto that opens a test (docs/product.md §5): blocked with the no-tests dialog when the Spark has none. */
function opensTest(goto: string): boolean {
  return goto.split(/[?#]/)[0].toLowerCase().includes('test');
}

function sparkOfPath(goto: string): string | undefined {
  return /\/spark\/([^/?#]+)/.exec(goto)?.[1];
}

/** How long an imported file is watched for (it shows when it is read anyway, on the next load). */
const IMPORT_WATCH_POLLS = 200;

/**
 * A file picked in the builder's browser: the documents list is read every DOCUMENT_POLL_MS until a document of
 * that name is read (or failed) — or, when the import skipped it, the chat says so — then `done`.
 */
function useImportWatch(
  name: string | null,
  sparkId: string | undefined,
  handlers: {
    reload: () => Promise<void>;
    skipped: (name: string, since: number) => boolean;
    done: (read: boolean) => void;
  },
) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!name || !sparkId) return;
    let stopped = false;
    const since = Date.now() - 5_000;
    void (async () => {
      for (let poll = 0; poll < IMPORT_WATCH_POLLS && !stopped; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, DOCUMENT_POLL_MS));
        if (stopped) return;
        const documents = await listDocuments(sparkId).catch(() => null);
        const doc = documents?.find((d) => d.name === name && d.source);
        if (doc && (doc.status === 'completed' || doc.status === 'error')) {
          await latest.current.reload();
          if (!stopped) latest.current.done(doc.status === 'completed');
          return;
        }
        // Not imported (too large, the plan full…): the chat tells why; watching stops once it does.
        if (poll % 2 === 1) {
          await latest.current.reload();
          if (!stopped && latest.current.skipped(name, since)) {
            latest.current.done(false);
            return;
          }
        }
      }
      if (!stopped) latest.current.done(false);
    })();
    return () => {
      stopped = true;
    };
  }, [name, sparkId]);
}

/** The dialogs (on Headless UI's dialog) are not part of the first download: none is open when a chat loads. */
/** The dialogs an upload opens: closing them gives the focus back to the attach button. */
const UPLOAD_PROBLEMS = new Set<ChatProblem['kind']>(['format', 'size', 'confirmUpload', 'documentLimit']);

const chatDialogs = lazyComponent<ChatDialogsProps>(() => import('./ChatDialogs').then((module) => module.ChatDialogs));

/**
 * The chat: conversation, widgets, message box, attach control and its dialogs, for a system assistant,
 * a Spark's builder or a test of a Spark. Remounts when the target changes.
 */
export function ChatPanel(props: ChatPanelProps): JSX.Element {
  return <ChatPanelBody key={targetKey(props.target)} {...props} />;
}

function ChatPanelBody({
  target,
  autoStart,
  initialText,
  freshAfterMs,
  onMessages,
  className,
  welcome,
  refreshOn,
}: ChatPanelProps) {
  const { t, i18n } = useTranslation('chat');
  const language = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  const navigate = useNavigate();
  const openPlans = useOpenPlans();
  const { mutate } = useSWRConfig();
  const [problem, setProblem] = useState<ChatProblem | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const composerBox = useRef<HTMLDivElement>(null);
  const composer = useRef<ComposerHandle>(null);

  // docs/product.md §4: a 402 on a send. TRIAL_ENDED opens the account's trial-ended popup (and the profile is read again,
  // it says so too); any other 402 opens the upgrade prompt here.
  const onSendProblem = useCallback(
    (sent: SendProblem) => {
      if (sent.kind === 'upgrade') {
        void mutate(PROFILE_KEY);
        if (sent.code === 'TRIAL_ENDED') {
          billingDialogs.openTrialEnded();
          return;
        }
        billingDialogs.refused();
      }
      setProblem(sent);
    },
    [mutate],
  );
  const [importing, setImporting] = useState<string | null>(null);
  // Issue 20: the builder's file browser announces a picked file (watched until it is read) or the plan's document
  // limit (the dialog an upload's 402 opens).
  const onEvent = useCallback((data: Record<string, unknown>) => {
    if (data.event === 'documentLimit') setProblem({ kind: 'documentLimit' });
    if (data.event === 'documentImport' && typeof data.name === 'string') setImporting(data.name);
  }, []);
  const chat = useChat(target, { autoStart, initialText, freshAfterMs, onMessages, onProblem: onSendProblem, onEvent });
  const refreshed = useRef(refreshOn);
  const { reload } = chat;
  useEffect(() => {
    if (refreshOn === refreshed.current) return;
    refreshed.current = refreshOn;
    void reload();
  }, [refreshOn, reload]);
  const sparkId = target.sparkId ?? chat.sparkId ?? undefined;
  const uploader = useDocumentUpload({
    sparkId,
    conversationId: chat.sessionId && chat.sparkId === sparkId ? chat.sessionId : null,
    reload: chat.reload,
    onRead: onMessages,
    // The builder was waiting for the document: the hidden start keyword lets it go on to the next step.
    onCompleted: target.kind === 'builder' ? () => void chat.send('inicio') : undefined,
    onProblem: setProblem,
  });
  // In the Spark's chat, uploads show the title customers read (issue 34 item 10) and imported documents where they
  // came from: the documents list, by document id.
  const documentsKey = target.kind === 'builder' && sparkId ? ['documents', sparkId] : null;
  const { data: documents, mutate: refreshDocuments } = useSWR(documentsKey, () => listDocuments(sparkId!));
  const documentsById = useMemo(
    () =>
      new Map(
        (documents ?? []).map((d) => [
          d._id,
          { name: d.name, title: d.title, titleSet: d.titleSet, ...(d.source ? { source: d.source.text } : {}) },
        ]),
      ),
    [documents],
  );
  const rateAnswer = useCallback<RateAnswer>(
    (messageId, body) => rateTestAnswer(target.sparkId ?? '', messageId, body),
    [target.sparkId],
  );
  const keepAnswer = useCallback<KeepAnswer>(
    (messageId) => keepAnswerAsCheck(target.sparkId ?? '', messageId),
    [target.sparkId],
  );
  const retitle = useCallback(
    async (documentId: string, title: string | null) => {
      if (!sparkId) return;
      const saved = await setDocumentTitle(sparkId, documentId, title);
      await refreshDocuments((list) => list?.map((d) => (d._id === saved._id ? saved : d)), { revalidate: false });
    },
    [sparkId, refreshDocuments],
  );
  const messagesRef = useRef(chat.messages);
  messagesRef.current = chat.messages;
  useImportWatch(importing, sparkId, {
    reload: chat.reload,
    skipped: (name, since) =>
      messagesRef.current.some(
        (m) => m.data?.type === 'importSkipped' && m.data?.name === name && Date.parse(m.createdAt ?? '') >= since,
      ),
    done: (read) => {
      setImporting(null);
      void refreshDocuments();
      onMessages?.();
      // As after an upload: the builder goes on (while browsing, it offers another file).
      if (read && target.kind === 'builder') void chat.send('inicio');
    },
  });
  const { data: profile } = useProfile();
  const Dialogs = chatDialogs.useLoaded();
  // Their code is fetched once the chat is on screen, so that a dialog (the error one when the network has just
  // gone) does not wait for a download; or at once when one is due before that.
  useEffect(() => whenIdle(() => void chatDialogs.load().catch(() => undefined)), []);
  useEffect(() => {
    if (problem && !Dialogs)
      chatDialogs.load().catch((error: unknown) => console.error('Failed to load the chat dialogs', error));
  }, [problem, Dialogs]);
  const productName = profile?.tenants?.[0]?.subscription?.productName;
  const canConnect = !!sparkId && isZaphire(productName);
  const { data: integrations, mutate: refreshIntegrations } = useSWR(
    canConnect ? ['integrations', sparkId] : null,
    () => getIntegrations(sparkId!),
  );
  const connection = integrations?.connections.find(
    (c): c is typeof c & { service: SharingService } => c.provider === 'microsoft' && c.service in SERVICE_NAMES,
  );
  /** After the confirmation: the server forgets the tokens; the menu offers connecting again. */
  const disconnect = useCallback(async () => {
    setProblem(null);
    if (!sparkId) return;
    try {
      await disconnectIntegration(sparkId);
    } catch (error: unknown) {
      console.error('Disconnecting document sharing failed', error);
      setProblem({
        kind: 'error',
        // The server's message is in the user's language; a network failure gets the dialog's own text.
        message: isApiError(error) && error.status !== undefined && error.code !== 'HTTP_ERROR' ? error.message : '',
      });
    }
    await refreshIntegrations();
  }, [sparkId, refreshIntegrations]);
  /**
   * docs/product.md §7: the sign-in opens in a new tab. The tab is opened at once (in the click, so no pop-up blocker stops
   * it) and sent to Microsoft when the address arrives; a failed connect is only logged (docs/product.md §8).
   */
  const connect = useCallback(() => {
    if (!sparkId) return;
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    authorizeIntegration(sparkId).then(
      ({ authUrl }) => {
        if (tab) tab.location.href = authUrl;
        else window.open(authUrl, '_blank', 'noopener');
      },
      (error: unknown) => {
        tab?.close();
        console.error('Connecting document sharing failed', error);
      },
    );
  }, [sparkId]);

  const { messages, pending } = chat;
  const items = useMemo(() => {
    const shown: ChatMessage[] = pending
      ? [
          ...messages,
          {
            _id: 'pending',
            type: 'human',
            data: { content: pending.text },
            createdAt: new Date(pending.at).toISOString(),
          },
        ]
      : messages;
    // Widgets and cards read in the interface's language, whichever it switches to (issue 34 item 3).
    return toDisplayItems(shown, new Date(), language);
  }, [messages, pending, language]);
  // A document uploaded in this chat joins the list (deleted ones never do: asked again only when the set changes).
  const unlisted = documents
    ? items
        .flatMap((item) => (item.kind === 'upload' ? [documentIdOf(item.message)] : []))
        .filter((id) => id && !documentsById.has(id))
        .join(',')
    : '';
  useEffect(() => {
    if (unlisted) void refreshDocuments();
  }, [unlisted, refreshDocuments]);

  const busy = chat.busy || uploader.busy;
  const { send } = chat;

  const choose = useCallback(
    async (choice: Choice) => {
      if (choice.goto) {
        const goto = choice.goto;
        const testSpark = opensTest(goto) ? (sparkOfPath(goto) ?? sparkId) : undefined;
        if (testSpark) {
          const tests = await listTests(testSpark).catch(() => null);
          if (tests && tests.length === 0) {
            setProblem({ kind: 'noTests' });
            return;
          }
          // The test page opens on this fresh list, not on an older cached one without the new test.
          if (tests) await mutate(testsKey(testSpark), tests, { revalidate: false });
        }
        void navigate(goto);
        return;
      }
      if (choice.value) {
        // The used widget turns disabled: the keyboard goes on from the message box.
        composer.current?.focus();
        await send(choice.value);
      }
    },
    [navigate, send, sparkId, mutate],
  );

  const viewPlans = () => {
    setProblem(null);
    openPlans();
  };

  const buyMore = () => {
    setProblem(null);
    billingDialogs.openCredits();
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    const check = await checkUpload(file);
    if (!check.ok) setProblem(check.reason === 'size' ? { kind: 'size', bytes: check.bytes } : { kind: 'format' });
    else setProblem({ kind: 'confirmUpload', file });
  };

  // Headless UI gives the focus back to what had it when a dialog opened; after the file chooser that can be
  // nothing (the menu entry that opened it is gone), so an upload dialog hands it to the attach button itself.
  const closeProblem = () => {
    const fromUpload = problem !== null && UPLOAD_PROBLEMS.has(problem.kind);
    setProblem(null);
    if (!fromUpload) return;
    const focusAttach = () => composerBox.current?.querySelector<HTMLElement>('.chat-composer__icon-button')?.focus();
    requestAnimationFrame(focusAttach);
    setTimeout(focusAttach, 100);
  };

  const confirmUpload = (file: File) => {
    setProblem(null);
    void uploader.upload(file);
  };

  const actions = useMemo(() => ({ send, busy: chat.busy }), [send, chat.busy]);

  return (
    <ChatActionsContext.Provider value={actions}>
      <section
        className={['chat-panel', className].filter(Boolean).join(' ')}
        aria-label={t('panel.label')}
        data-target={target.kind}
      >
        <MessageList
          items={items}
          streams={chat.streams}
          loading={chat.loading}
          typing={chat.busy}
          upload={
            importing && uploader.phase === 'idle'
              ? { phase: 'reading', name: importing }
              : { phase: uploader.phase, name: uploader.name }
          }
          documents={documentsById}
          onRetitle={target.kind === 'builder' ? retitle : undefined}
          onRate={target.kind === 'test' ? rateAnswer : undefined}
          onKeep={target.kind === 'test' ? keepAnswer : undefined}
          interactive={!busy}
          onChoose={(choice) => void choose(choice)}
          welcome={welcome}
        />
        <div className="chat-panel__composer" ref={composerBox}>
          <Composer
            handle={composer}
            onSend={send}
            // A message may go while a reply is still being revealed (the rest shows at once), not while one is sent.
            sending={chat.sending}
            disabled={chat.loading && messages.length === 0}
            attach={
              sparkId ? (
                <AttachMenu
                  onAddFiles={() => fileInput.current?.click()}
                  connect={
                    canConnect
                      ? {
                          configured: integrations?.configured.microsoft,
                          onConnect: connect,
                          connected: connection && {
                            service: connection.service,
                            onDisconnect: () => setProblem({ kind: 'confirmDisconnect', service: connection.service }),
                          },
                        }
                      : undefined
                  }
                  disabled={uploader.busy}
                />
              ) : undefined
            }
          />
          <input
            ref={fileInput}
            type="file"
            accept={UPLOAD_ACCEPT}
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="chat-file-input"
            onChange={(event) => void onFile(event)}
          />
        </div>
        {Dialogs && (
          <Dialogs
            problem={problem}
            onClose={closeProblem}
            onConfirmUpload={confirmUpload}
            onConfirmDisconnect={() => void disconnect()}
            onViewPlans={viewPlans}
            onBuyMore={buyMore}
          />
        )}
      </section>
    </ChatActionsContext.Provider>
  );
}
