import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import * as authApi from '../api';
import { forgotPasswordError } from './ForgotPasswordPage';
import ResetPasswordPage from './ResetPasswordPage';

jest.mock('../api');
const api = jest.mocked(authApi);

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderReset(entry: string) {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save and log in' }));
    await Promise.resolve();
  });
}

function fill(password: string, repeat = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: repeat } });
}

beforeAll(() => initTestI18n('en'));
beforeEach(() => {
  jest.resetAllMocks();
  localStorage.clear();
});

describe('ResetPasswordPage', () => {
  it('without a token says so and links to /forgot-password', () => {
    renderReset('/reset-password');
    expect(screen.getByRole('heading', { name: 'This link is not complete' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('checks the rules and the repeat before calling the server', async () => {
    renderReset('/reset-password?token=t1');
    fill('abcdefgH1', 'abcdefgH1');
    await save();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      expect.stringContaining('Use 8 to 100 characters'),
    );
    expect(screen.getByLabelText('New password')).toHaveFocus();

    fill('abcdefgH1!', 'abcdefgH1?');
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();
    await save();
    expect(screen.getByLabelText('Repeat the new password')).toHaveAccessibleDescription('Passwords do not match');
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('resets with the link token, logs in with the new password and goes to /', async () => {
    api.resetPassword.mockResolvedValue({ username: 'ana@example.com' });
    api.login.mockResolvedValue({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
    renderReset('/reset-password?token=t1');
    fill('abcdefgH1!');
    expect(screen.getByText('The passwords match')).toBeInTheDocument();
    await save();
    await act(() => Promise.resolve());
    expect(api.resetPassword).toHaveBeenCalledWith('t1', 'abcdefgH1!');
    expect(api.login).toHaveBeenCalledWith('ana@example.com', 'abcdefgH1!');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('access_token')).toBe('a');
  });

  it('turns INVALID_TOKEN into the invalid-link message', async () => {
    api.resetPassword.mockRejectedValue(new ApiError(400, [{ code: 'INVALID_TOKEN', message: 'x' }]));
    renderReset('/reset-password?token=used');
    fill('abcdefgH1!');
    await save();
    expect(screen.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeInTheDocument();
  });
});

describe('forgotPasswordError (docs/product.md §8)', () => {
  it('maps not verified, invalid e-mail and everything else', () => {
    const error = (code: string) => new ApiError(400, [{ code, message: code }]);
    expect(forgotPasswordError(error('NOT_VERIFIED'))).toEqual({ form: { key: 'forgot.notVerified' } });
    expect(forgotPasswordError(error('INVALID_PARAMS'))).toEqual({ field: { key: 'validation.invalidParams' } });
    expect(forgotPasswordError(error('USER_NOT_FOUND'))).toEqual({ form: { key: 'forgot.notExist' } });
    expect(forgotPasswordError(error('INTERNAL'))).toEqual({ form: { key: 'forgot.notExist' } });
    expect(forgotPasswordError(error('TOO_MANY_REQUESTS'))).toEqual({
      form: { api: { code: 'TOO_MANY_REQUESTS', message: 'TOO_MANY_REQUESTS' } },
    });
  });
});
