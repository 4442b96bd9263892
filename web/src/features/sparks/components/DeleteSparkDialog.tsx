import type { SparkView } from '@sparks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '../../../ui/ConfirmDialog';

/** docs/product.md §5: deleting a Spark needs the word typed exactly, whatever the language. */
export const DELETE_WORD = 'Borrar';

export interface DeleteSparkDialogProps {
  spark: SparkView | null;
  onClose: () => void;
  /** DELETE /sparks/{id} and the cache updates; a rejection keeps the dialog open with an error. */
  onDelete: (spark: SparkView) => Promise<void>;
}

/** The delete-chatbot confirmation: type "Borrar", then confirm. */
export default function DeleteSparkDialog({ spark, onClose, onDelete }: DeleteSparkDialogProps) {
  const { t } = useTranslation('sparks');
  const [failed, setFailed] = useState(false);
  return (
    <ConfirmDialog
      open={spark !== null}
      onClose={() => {
        setFailed(false);
        onClose();
      }}
      onConfirm={async () => {
        if (!spark) return;
        setFailed(false);
        try {
          await onDelete(spark);
        } catch (error) {
          setFailed(true);
          throw error;
        }
      }}
      title={t('delete.title', { name: spark?.name ?? '' })}
      description={t('delete.body')}
      requiredText={DELETE_WORD}
      requiredTextLabel={t('delete.typeLabel', { word: DELETE_WORD })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('delete.cancel')}
      error={failed ? t('delete.failed') : undefined}
    />
  );
}
