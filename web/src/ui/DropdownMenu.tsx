import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

import type { HeadlessMenuProps } from './HeadlessMenu';
import { lazyComponent } from './lazyComponent';
import './ui.css';

export type DropdownEntry =
  | {
      kind?: 'item';
      key: string;
      label: ReactNode;
      icon?: ReactNode;
      /** A link (router navigation) … */
      to?: string;
      /** … or an action. */
      onSelect?: () => void;
      /** Greyed out and not selectable; `hint` explains why (tooltip and description). */
      disabled?: boolean;
      hint?: string;
      /** A short tag shown after the label (its description too), e.g. "Coming soon". */
      badge?: string;
      tone?: 'default' | 'danger' | 'primary';
    }
  | { kind: 'separator'; key: string };

export interface DropdownMenuProps {
  /** The button's accessible name. */
  label: string;
  /** What the button shows (an icon, the name…); the label is used when absent. */
  button?: ReactNode;
  /**
   * `button` shows text and holds the accessible name itself (the visible text, with hidden words around it): no
   * `aria-label`, which would hide what is seen from voice control (WCAG 2.5.3, label in name). The label stays the
   * tooltip.
   */
  namedByContent?: boolean;
  buttonClassName?: string;
  /** Content above the entries (not focusable by the arrow keys): a name, a plan. */
  header?: ReactNode;
  entries: DropdownEntry[];
  anchor?: 'bottom start' | 'bottom end' | 'top start' | 'top end' | 'right start' | 'left start';
  className?: string;
  /** Runs when the button is pressed (preload what the entries open). */
  onOpen?: () => void;
  /** The button cannot be pressed. */
  disabled?: boolean;
}

/**
 * Headless UI's menu (with its floating positioning) is the heaviest code of the sidebar and of the chat's attach
 * control, and no menu is open when a page loads: it is fetched when a menu button is first pointed at, focused or
 * pressed. Until a menu is first pressed it is a stand-in button that looks and is named the same; pressing it
 * swaps in the real menu, already open (a swap never happens under the pointer in the middle of a click).
 */
const headlessMenu = lazyComponent<HeadlessMenuProps>(() => import('./HeadlessMenu').then((module) => module.default));

function loadHeadlessMenu() {
  return headlessMenu.load();
}

const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

/** A menu button and its dropdown (Headless UI, keyboard-operable, focus returned to the button on close). */
export function DropdownMenu(props: DropdownMenuProps) {
  const { label, button, buttonClassName = 'icon-button', className, disabled } = props;
  const Menu = headlessMenu.useLoaded();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [openedWith, setOpenedWith] = useState<'pointer' | 'keyboard' | null>(null);

  if (Menu && openedWith) return <Menu {...props} buttonRef={buttonRef} openWith={openedWith} />;

  const preload = () => void loadHeadlessMenu().catch(() => undefined);
  const open = (how: 'pointer' | 'keyboard') => {
    setOpenedWith(how);
    props.onOpen?.();
    preload();
  };
  return (
    <div className={['menu', className].filter(Boolean).join(' ')}>
      <button
        type="button"
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={false}
        aria-busy={openedWith ? true : undefined}
        disabled={disabled}
        aria-label={button && !props.namedByContent ? label : undefined}
        title={button ? label : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(event) => open(event.detail === 0 ? 'keyboard' : 'pointer')}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          if (!OPENING_KEYS.has(event.key)) return;
          event.preventDefault();
          open('keyboard');
        }}
      >
        {button ?? label}
      </button>
    </div>
  );
}
