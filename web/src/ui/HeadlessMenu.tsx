import { Description, Label, Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router-dom';

import type { DropdownEntry, DropdownMenuProps } from './DropdownMenu';
import './ui.css';

/** The reason a disabled entry is off: its description (Headless UI wires aria-describedby), shown on hover. */
function Hint({ text }: { text: string }) {
  return (
    <Description as="span" role="tooltip" className="menu__hint">
      {text}
    </Description>
  );
}

function EntryContent({ icon, label, badge }: { icon?: ReactNode; label: ReactNode; badge?: string }) {
  return (
    <>
      {icon && (
        <span className="menu__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <Label as="span" className="menu__text">
        {label}
      </Label>
      {badge && (
        <Description as="span" className="menu__badge">
          {badge}
        </Description>
      )}
    </>
  );
}

function Entry({ entry }: { entry: Extract<DropdownEntry, { kind?: 'item' }> }) {
  const className = `menu__item menu__item--${entry.tone ?? 'default'}`;
  if (entry.disabled) {
    return (
      <MenuItem disabled as="div" className={`${className} menu__item--disabled`}>
        <EntryContent icon={entry.icon} label={entry.label} badge={entry.badge} />
        {entry.hint && <Hint text={entry.hint} />}
      </MenuItem>
    );
  }
  if (entry.to) {
    return (
      <MenuItem as={Link} to={entry.to} className={className} onClick={entry.onSelect}>
        <EntryContent icon={entry.icon} label={entry.label} badge={entry.badge} />
      </MenuItem>
    );
  }
  return (
    <MenuItem as="button" type="button" className={className} onClick={entry.onSelect}>
      <EntryContent icon={entry.icon} label={entry.label} badge={entry.badge} />
    </MenuItem>
  );
}

export interface HeadlessMenuProps extends DropdownMenuProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** The stand-in button was pressed: open right after mounting, as a click or a key would have. */
  openWith: 'pointer' | 'keyboard' | null;
}

/**
 * A menu button and its dropdown on Headless UI: Enter, Space or the arrow keys open it, the arrow keys, Home,
 * End and typing move between the entries, Escape closes it and gives the focus back to the button. The entries
 * float in a portal, so they are not clipped by a scrolling sidebar. Loaded on demand by DropdownMenu.
 */
export default function HeadlessMenu({
  label,
  button,
  namedByContent,
  buttonClassName = 'icon-button',
  header,
  entries,
  anchor = 'bottom start',
  className,
  onOpen,
  disabled,
  buttonRef,
  openWith,
}: HeadlessMenuProps) {
  const openedWith = useRef(openWith);
  useEffect(() => {
    const target = buttonRef.current;
    if (!target || !openedWith.current) return;
    target.focus();
    // A key opens with the first entry active (Headless UI's ArrowDown); a click opens with none.
    if (openedWith.current === 'keyboard')
      target.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true }));
    else target.click();
    openedWith.current = null;
  }, [buttonRef]);

  return (
    <Menu as="div" className={['menu', className].filter(Boolean).join(' ')}>
      <MenuButton
        ref={buttonRef}
        className={buttonClassName}
        aria-label={button && !namedByContent ? label : undefined}
        title={button ? label : undefined}
        onClick={onOpen}
        disabled={disabled}
      >
        {button ?? label}
      </MenuButton>
      <MenuItems anchor={{ to: anchor, gap: 6, padding: 8 }} className="menu__items" modal={false}>
        {header && <div className="menu__header">{header}</div>}
        {entries.map((entry) =>
          entry.kind === 'separator' ? (
            <MenuSeparator key={entry.key} className="menu__separator" />
          ) : (
            <Entry key={entry.key} entry={entry} />
          ),
        )}
      </MenuItems>
    </Menu>
  );
}
