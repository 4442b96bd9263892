import type { ApiClient } from '../../api/client';
import { logout, startSession } from './session';

function fakeClient(post: jest.Mock) {
  return { post } as unknown as ApiClient;
}

beforeEach(() => localStorage.clear());

describe('session', () => {
  it('stores the tokens under access_token, refresh_token and refresh_Token', () => {
    startSession({ access_token: 'a', refresh_Token: 'r' });
    expect({ ...localStorage }).toEqual({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
  });

  it('logs out on the server, clears the session but keeps language and remembered e-mail, and goes to /auth', async () => {
    startSession({ access_token: 'a', refresh_token: 'r' });
    localStorage.setItem('i18nextLng', 'es');
    localStorage.setItem('rememberMe', 'true');
    localStorage.setItem('emailForLogin', 'ana@example.com');
    localStorage.setItem('sys_spark_conversations', '{}');
    const post = jest.fn().mockResolvedValue({ loggedOut: true });
    const redirect = jest.fn();

    await logout({ client: fakeClient(post), redirect });

    expect(post).toHaveBeenCalledWith('/auth/logout', { refresh_token: 'r' });
    expect({ ...localStorage }).toEqual({ i18nextLng: 'es', rememberMe: 'true', emailForLogin: 'ana@example.com' });
    expect(redirect).toHaveBeenCalledWith('/auth');
  });

  it('still ends the local session when the server call fails', async () => {
    startSession({ access_token: 'a', refresh_token: 'r' });
    const redirect = jest.fn();
    await logout({ client: fakeClient(jest.fn().mockRejectedValue(new Error('Network Error'))), redirect });
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(redirect).toHaveBeenCalledWith('/auth');
  });
});
