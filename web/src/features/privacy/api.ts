import type { AccountDeleted, AccountExportQueued, DeleteAccountRequest, DeletionMethod } from '@sparks/contracts';

import { api, ApiError, CLIENT_ERROR_CODES, unwrapBody } from '../../api/client';

export type ExportOutcome = { kind: 'downloaded'; file: string } | ({ kind: 'queued' } & AccountExportQueued);

const FILE_NAME = /filename="([^"]+)"/;

/** The answer's `data`, or its errors thrown as an {@link ApiError} (any other failure as HTTP_ERROR). */
async function answer<T>(res: Response): Promise<T> {
  const body: unknown = await res.json().catch(() => ({}));
  const data = unwrapBody<T>(body, res.status);
  if (!res.ok) throw new ApiError(res.status, [{ code: CLIENT_ERROR_CODES.http, message: `HTTP ${res.status}` }]);
  return data;
}

/** Hands a file to the browser's downloads (an object URL on a link clicked once). */
function save(blob: Blob, file: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * GET /account/export: the zip of everything of the account, saved as a download; or, for an account the worker
 * zips (202), where its link will be e-mailed.
 */
export async function exportAccount(): Promise<ExportOutcome> {
  const res = await api.fetch('account/export', { headers: { Accept: 'application/zip, application/json' } });
  if (res.status === 200) {
    const file = FILE_NAME.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'sparks-data.zip';
    save(await res.blob(), file);
    return { kind: 'downloaded', file };
  }
  return { kind: 'queued', ...(await answer<AccountExportQueued>(res)) };
}

export const deletionMethod = () => api.get<DeletionMethod>('/account/deletion');
export const sendDeletionCode = () => api.post<{ sent: true; cooldownSeconds: number }>('/account/deletion-code', {});

/** DELETE /account with its confirmation (the client's `delete` sends no body: fetch does). */
export async function deleteAccount(request: DeleteAccountRequest): Promise<AccountDeleted> {
  const res = await api.fetch('account', {
    method: 'DELETE',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(request),
  });
  return answer<AccountDeleted>(res);
}

export const privacyPolicyUrl = () => api.get<{ url: string | null }>('/account/privacy-policy');
