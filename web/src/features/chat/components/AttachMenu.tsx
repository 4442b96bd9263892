import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useTranslation } from 'react-i18next';

import { LinkIcon, PaperclipIcon, UploadIcon } from './UiIcons';

export interface AttachMenuProps {
  onAddFiles: () => void;
  /** Spec §6: "Connect document-sharing" only on the zaphire plan (coming soon here). */
  showConnect: boolean;
  disabled: boolean;
}

/** The file-attach control: a button opening "Add files" (and, on zaphire, the document-sharing entry). */
export function AttachMenu({ onAddFiles, showConnect, disabled }: AttachMenuProps) {
  const { t } = useTranslation('chat');
  return (
    <Menu as="div" className="chat-attach">
      <MenuButton className="chat-composer__icon-button" aria-label={t('attach.button')} disabled={disabled}>
        <PaperclipIcon />
      </MenuButton>
      <MenuItems className="chat-attach__menu" modal={false}>
        <MenuItem as="button" type="button" className="chat-attach__item" onClick={onAddFiles}>
          <UploadIcon />
          <span>{t('attach.addFiles')}</span>
        </MenuItem>
        {showConnect && (
          <MenuItem as="button" type="button" className="chat-attach__item" disabled>
            <LinkIcon />
            <span>{t('attach.connect')}</span>
            <span className="chat-attach__soon">{t('attach.comingSoon')}</span>
          </MenuItem>
        )}
      </MenuItems>
    </Menu>
  );
}
