import { useTranslation } from 'react-i18next';

import { DropdownMenu, type DropdownEntry } from '../../../ui/DropdownMenu';
import { LinkIcon, PaperclipIcon, UploadIcon } from './UiIcons';

export interface AttachMenuProps {
  onAddFiles: () => void;
  /**
   * Spec §6: "Connect document-sharing" only on the zaphire plan. `configured` false: this server has no
   * Microsoft app, and the entry says so instead (as the Google button does); undefined: still asking.
   */
  connect?: { configured: boolean | undefined; onConnect: () => void };
  disabled: boolean;
}

/**
 * The file-attach control: a button opening "Add files" (and, on zaphire, the document-sharing entry). It is the
 * app's dropdown menu, so the menu code is fetched when the button is first pointed at or pressed.
 */
export function AttachMenu({ onAddFiles, connect, disabled }: AttachMenuProps) {
  const { t } = useTranslation('chat');
  const entries: DropdownEntry[] = [
    { key: 'add', label: t('attach.addFiles'), icon: <UploadIcon />, onSelect: onAddFiles },
  ];
  if (connect)
    entries.push(
      connect.configured
        ? { key: 'connect', label: t('attach.connect'), icon: <LinkIcon />, onSelect: connect.onConnect }
        : {
            key: 'connect',
            label: t('attach.connect'),
            icon: <LinkIcon />,
            disabled: true,
            badge: connect.configured === false ? t('attach.notConfigured') : undefined,
          },
    );
  return (
    <DropdownMenu
      label={t('attach.button')}
      button={<PaperclipIcon />}
      buttonClassName="chat-composer__icon-button"
      className="chat-attach"
      anchor="top start"
      entries={entries}
      disabled={disabled}
    />
  );
}
