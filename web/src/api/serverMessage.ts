import { CLIENT_ERROR_CODES, isApiError } from './client';

/** The server's own words when it said why (in the user's language); ours for anything else. */
export const serverMessage = (error: unknown): string | undefined =>
  isApiError(error) && error.code && !(Object.values(CLIENT_ERROR_CODES) as string[]).includes(error.code)
    ? error.message
    : undefined;
