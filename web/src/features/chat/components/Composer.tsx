import {
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { MAX_MESSAGE_LENGTH, MESSAGE_LENGTH_SHOWN_FROM } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { SendIcon } from './UiIcons';

export interface ComposerProps {
  /** Sends; answers whether the message was stored (if not, its text comes back to the box). */
  onSend: (text: string) => Promise<boolean>;
  /** A reply is on its way: nothing more can be sent meanwhile. */
  sending: boolean;
  disabled?: boolean;
  attach?: ReactNode;
  /** Lets the panel give the focus back to the box (after a widget was used). */
  handle?: Ref<ComposerHandle>;
}

export interface ComposerHandle {
  focus: () => void;
}

/** The message box: Enter sends, Shift+Enter starts a new line; empty or blank text is never sent. */
export function Composer({ onSend, sending, disabled, attach, handle }: ComposerProps) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const canSend = !sending && !disabled && text.trim() !== '';
  // Near the limit the box says how long the message is; at it (typed, or pasted: the box keeps the first characters),
  // that the rest was not taken.
  const near = text.length >= MESSAGE_LENGTH_SHOWN_FROM;
  const full = text.length >= MAX_MESSAGE_LENGTH;
  useImperativeHandle(handle, () => ({ focus: () => box.current?.focus() }), []);

  // Grow with the text, up to the CSS max-height.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight}px`;
  }, [text]);

  const submit = async () => {
    if (!canSend) return;
    const sent = text;
    setText('');
    const stored = await onSend(sent);
    if (!stored) setText((current) => (current === '' ? sent : current));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form className="chat-composer" onSubmit={onSubmit}>
      {attach}
      <label className="visually-hidden" htmlFor={id}>
        {t('composer.label')}
      </label>
      <textarea
        id={id}
        ref={box}
        className="chat-composer__input"
        rows={1}
        value={text}
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={t('composer.placeholder')}
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        {t('composer.hint')}
      </span>
      {near && (
        <span
          className={full ? 'chat-composer__count chat-composer__count--full' : 'chat-composer__count'}
          role="status"
        >
          {full
            ? t('composer.limit', { max: MAX_MESSAGE_LENGTH })
            : t('composer.count', { count: text.length, max: MAX_MESSAGE_LENGTH })}
        </span>
      )}
      <button type="submit" className="chat-composer__send" disabled={!canSend} aria-label={t('composer.send')}>
        {sending ? <span className="spinner spinner--button" aria-hidden="true" /> : <SendIcon />}
      </button>
    </form>
  );
}
