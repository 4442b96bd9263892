import { useCallback, useEffect, useRef, useState } from 'react';

import { isApiError } from '../../../api/client';
import { listDocuments, uploadDocument } from '../api';
import { DOCUMENT_POLL_MS } from '../upload';

export type UploadPhase = 'idle' | 'uploading' | 'reading';

/** Why an upload was refused by the server: plan limit (402), not a PDF (415), too large (413), other. */
export type UploadProblem =
  | { kind: 'documentLimit' }
  | { kind: 'format' }
  | { kind: 'size'; bytes: number }
  | { kind: 'error'; message?: string };

export interface UseDocumentUploadOptions {
  sparkId: string | undefined;
  /** The conversation the upload is told in, when it belongs to that Spark. */
  conversationId: string | null;
  /** Reloads the conversation (the upload bubble, then what was read). */
  reload: () => Promise<void>;
  onRead?: () => void;
  /** A document was read (not refused): the builder goes on by itself (issue 18 item 3). */
  onCompleted?: () => void;
  onProblem: (problem: UploadProblem) => void;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** How long a document may take to be read before the chat stops looking (it shows when it is done). */
const MAX_POLLS = 400;

/**
 * The upload flow of docs/product.md §4: POST /bucket, the "you uploaded" bubble, then the document is read in the
 * background — polled every 1.5 s until completed or error — and the conversation is read again.
 */
export function useDocumentUpload({
  sparkId,
  conversationId,
  reload,
  onRead,
  onCompleted,
  onProblem,
}: UseDocumentUploadOptions) {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [name, setName] = useState('');
  const abortRef = useRef<AbortController | null>(null);
  const latest = useRef({ reload, onRead, onCompleted, onProblem });
  latest.current = { reload, onRead, onCompleted, onProblem };

  useEffect(() => {
    const controller = new AbortController();
    abortRef.current = controller;
    return () => controller.abort();
  }, []);

  const upload = useCallback(
    async (file: File) => {
      const signal = abortRef.current?.signal;
      if (!sparkId || !signal) return;
      setName(file.name);
      setPhase('uploading');
      try {
        const result = await uploadDocument(file, sparkId, conversationId);
        if (signal.aborted) return;
        setPhase('reading');
        await latest.current.reload();
        let status = result.status;
        let failures = 0;
        for (let poll = 0; status !== 'completed' && status !== 'error' && poll < MAX_POLLS; poll += 1) {
          try {
            const documents = await listDocuments(sparkId);
            status = documents.find((d) => d._id === result._id)?.status ?? 'error';
            failures = 0;
          } catch {
            failures += 1;
            if (failures >= 5) break;
          }
          if (status === 'completed' || status === 'error') break;
          await wait(DOCUMENT_POLL_MS, signal);
          if (signal.aborted) return;
        }
        if (signal.aborted) return;
        await latest.current.reload();
        latest.current.onRead?.();
        if (status === 'completed') latest.current.onCompleted?.();
      } catch (error) {
        if (signal.aborted) return;
        console.error('Failed to upload the document', error);
        const status = isApiError(error) ? error.status : undefined;
        if (status === 402) latest.current.onProblem({ kind: 'documentLimit' });
        else if (status === 415) latest.current.onProblem({ kind: 'format' });
        else if (status === 413) latest.current.onProblem({ kind: 'size', bytes: file.size });
        else latest.current.onProblem({ kind: 'error', message: isApiError(error) ? error.message : undefined });
      } finally {
        if (!signal.aborted) setPhase('idle');
      }
    },
    [sparkId, conversationId],
  );

  return { phase, name, upload, busy: phase !== 'idle' };
}
