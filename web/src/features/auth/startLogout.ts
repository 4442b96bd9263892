import { clearSession } from './tokens';

/**
 * Signs out from the shell's buttons (the header's "Log out", the profile menu, the disabled-account dialog).
 * The session module and the API client load on first use, so they stay out of the shell's chunk; when that
 * chunk cannot load (offline, a new release) the session is forgotten here and the user starts over at /auth.
 */
export function startLogout(): void {
  void import('./session')
    .then(({ logout }) => logout())
    .catch(() => {
      clearSession();
      window.location.replace('/auth');
    });
}
