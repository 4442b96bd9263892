/**
 * Whether cookies the app writes must be marked `Secure` (sent over https only): when the app itself is served
 * over https. Over plain http (development) a Secure cookie would not be stored at all.
 */
export function secureCookies(protocol: string = window.location.protocol): boolean {
  return protocol === 'https:';
}
