import { isRecord } from './json';

/** One error of the api's failure envelope (`{ statusCode, errors: [{ code, message }] }`, docs/product.md §7). */
interface ErrorItem {
  code: string;
  message: string;
}

/**
 * Reads a non-2xx answer of fetch (the app's chat stream and upload, the widget's every call): the server's error
 * list when it sent one, else one `HTTP_ERROR` with the status text (a proxy page, an empty answer).
 */
export async function readErrors(response: Response): Promise<ErrorItem[]> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (a proxy page, an empty answer)
  }
  return isRecord(body) && Array.isArray(body.errors)
    ? body.errors.map((e: unknown) => ({
        code: isRecord(e) && typeof e.code === 'string' ? e.code : 'HTTP_ERROR',
        message: isRecord(e) && typeof e.message === 'string' ? e.message : '',
      }))
    : [{ code: 'HTTP_ERROR', message: response.statusText || `HTTP ${response.status}` }];
}
