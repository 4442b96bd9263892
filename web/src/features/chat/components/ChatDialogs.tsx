import { MAX_UPLOAD_MB } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import type { SendProblem } from '../hooks/useChat';
import type { UploadProblem } from '../hooks/useDocumentUpload';
import { formatFileSize, formatMegabytes } from '../upload';
import { SERVICE_NAMES, type SharingService } from './AttachMenu';
import { ChatDialog, type DialogAction } from './ChatDialog';

/** Everything the chat may have to tell in a dialog (docs/product.md §2 dialogs, §8 errors). */
export type ChatProblem =
  | SendProblem
  | UploadProblem
  | { kind: 'noTests' }
  | { kind: 'confirmUpload'; file: File }
  | { kind: 'confirmDisconnect'; service: SharingService };

export interface ChatDialogsProps {
  problem: ChatProblem | null;
  onClose: () => void;
  onConfirmUpload: (file: File) => void;
  /** "Disconnect" in the confirmation of disconnecting the document-sharing service. */
  onConfirmDisconnect: () => void;
  onViewPlans: () => void;
  /** The upgrade prompt's "buy more interactions" (the credit-pack popup). */
  onBuyMore: () => void;
}

interface DialogContent {
  title: string;
  text: string;
  actions: DialogAction[];
  alert: boolean;
}

/** The chat's dialogs, one at a time. */
export function ChatDialogs({
  problem,
  onClose,
  onConfirmUpload,
  onConfirmDisconnect,
  onViewPlans,
  onBuyMore,
}: ChatDialogsProps) {
  const { t, i18n } = useTranslation('chat');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const understood: DialogAction = { label: t('dialogs.understood'), onClick: onClose, autoFocus: true };
  const plans: DialogAction = { label: t('dialogs.viewPlans'), onClick: onViewPlans, autoFocus: true };

  const content = ((): DialogContent | null => {
    if (!problem) return null;
    switch (problem.kind) {
      case 'error':
        return {
          title: t('dialogs.error.title'),
          text: problem.message || t('dialogs.error.text'),
          actions: [understood],
          alert: true,
        };
      case 'upgrade':
        // docs/product.md §4: a 402 on a send opens the upgrade prompt. Out of interactions it is the buy-more-interactions
        // prompt of docs/product.md §2 (its own dialog, not the out-of-interactions modal the layout shows before any 402):
        // a pack to keep chatting now, or a bigger plan.
        return problem.code === 'OUT_OF_INTERACTIONS'
          ? {
              title: t('dialogs.buyMorePrompt.title'),
              text: t('dialogs.buyMorePrompt.text'),
              actions: [
                { label: t('dialogs.buyMore'), onClick: onBuyMore, autoFocus: true },
                { label: t('dialogs.viewPlans'), onClick: onViewPlans, variant: 'secondary' },
                { label: t('dialogs.notNow'), onClick: onClose, variant: 'ghost' },
              ],
              alert: false,
            }
          : {
              title: t('dialogs.upgrade.title'),
              text: t('dialogs.upgrade.text'),
              actions: [plans, { label: t('dialogs.notNow'), onClick: onClose, variant: 'ghost' }],
              alert: false,
            };
      case 'documentLimit':
        return {
          title: t('dialogs.documentLimit.title'),
          text: t('dialogs.documentLimit.text'),
          actions: [plans, { label: t('dialogs.cancel'), onClick: onClose, variant: 'ghost' }],
          alert: true,
        };
      case 'format':
        return { title: t('dialogs.format.title'), text: t('dialogs.format.text'), actions: [understood], alert: true };
      case 'size':
        return {
          title: t('dialogs.size.title'),
          text: t('dialogs.size.text', { max: MAX_UPLOAD_MB, size: formatMegabytes(problem.bytes, language) }),
          actions: [understood],
          alert: true,
        };
      case 'noTests':
        return {
          title: t('dialogs.noTests.title'),
          text: t('dialogs.noTests.text'),
          actions: [understood],
          alert: true,
        };
      case 'confirmUpload': {
        const { file } = problem;
        const size = formatFileSize(file.size, language);
        return {
          title: t('dialogs.confirmUpload.title'),
          text: t('dialogs.confirmUpload.text', { name: file.name, size: `${size.value} ${size.unit}` }),
          actions: [
            { label: t('dialogs.accept'), onClick: () => onConfirmUpload(file), autoFocus: true },
            { label: t('dialogs.cancel'), onClick: onClose, variant: 'ghost' },
          ],
          alert: false,
        };
      }
      case 'confirmDisconnect': {
        const service = SERVICE_NAMES[problem.service];
        return {
          title: t('dialogs.disconnect.title', { service }),
          text: t('dialogs.disconnect.text', { service }),
          actions: [
            { label: t('dialogs.disconnect.confirm'), onClick: onConfirmDisconnect, variant: 'danger' },
            { label: t('dialogs.cancel'), onClick: onClose, variant: 'ghost', autoFocus: true },
          ],
          alert: true,
        };
      }
    }
  })();

  return (
    <ChatDialog
      open={content !== null}
      onClose={onClose}
      alert={content?.alert}
      title={content?.title ?? ''}
      actions={content?.actions ?? []}
    >
      {content?.text}
    </ChatDialog>
  );
}
