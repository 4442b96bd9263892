import { useTranslation } from 'react-i18next';

import { DropdownMenu, type DropdownEntry } from '../../../ui/DropdownMenu';
import { LinkIcon, PaperclipIcon, UnlinkIcon, UploadIcon } from './UiIcons';

/** How a document-sharing service is named (brands, the same in every language). */
export const SERVICE_NAMES = { sharepoint: 'SharePoint', onedrive: 'OneDrive' } as const;
export type SharingService = keyof typeof SERVICE_NAMES;

export interface AttachMenuProps {
  onAddFiles: () => void;
  /**
   * docs/product.md §6: "Connect document-sharing" only on the zaphire plan. `configured` false: this server has no
   * Microsoft app, and the entry says so instead (as the Google button does); undefined: still asking.
   */
  connect?: {
    configured: boolean | undefined;
    onConnect: () => void;
    /** The service the Spark is connected to, with "Disconnect <service>" (which asks first). */
    connected?: { service: SharingService; onDisconnect: () => void };
  };
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
  if (connect?.connected)
    entries.push({
      key: 'disconnect',
      label: t('attach.disconnect', { service: SERVICE_NAMES[connect.connected.service] }),
      icon: <UnlinkIcon />,
      tone: 'danger',
      onSelect: connect.connected.onDisconnect,
    });
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
