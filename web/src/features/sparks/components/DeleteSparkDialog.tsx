import type { SparkView } from '@sparks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { deploymentKey, fetchDeployment } from '../deployment';

/** docs/product.md §5: deleting a Spark needs the word typed exactly, whatever the language. */
export const DELETE_WORD = 'Borrar';

export interface DeleteSparkDialogProps {
  spark: SparkView | null;
  onClose: () => void;
  /** DELETE /sparks/{id} and the cache updates; a rejection keeps the dialog open with an error. */
  onDelete: (spark: SparkView) => Promise<void>;
}

/**
 * The delete-chatbot confirmation: type "Borrar", then confirm. A Spark published on a website says so first —
 * deleting it takes its chat off that site at once (the site it was seen on, else the first allowed one).
 */
export default function DeleteSparkDialog({ spark, onClose, onDelete }: DeleteSparkDialogProps) {
  const { t } = useTranslation('sparks');
  const [failed, setFailed] = useState(false);
  const { data: deployment } = useSWR(spark ? deploymentKey(spark._id) : null, () => fetchDeployment(spark!._id), {
    shouldRetryOnError: false,
  });
  const live = spark && deployment?.sparkId === spark._id && deployment.published ? deployment : undefined;
  const site = live ? (live.firstSeenOrigin ?? live.origins[0]?.origin) : undefined;
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
      description={
        live ? (
          <>
            <strong className="confirm-dialog__warning">
              {site ? t('delete.liveOn', { site }) : t('delete.live')}
            </strong>{' '}
            {t('delete.body')}
          </>
        ) : (
          t('delete.body')
        )
      }
      requiredText={DELETE_WORD}
      requiredTextLabel={t('delete.typeLabel', { word: DELETE_WORD })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('delete.cancel')}
      error={failed ? t('delete.failed') : undefined}
    />
  );
}
