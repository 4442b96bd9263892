import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import * as authApi from '../api';
import AuthPage from './AuthPage';

jest.mock('../api');
const api = jest.mocked(authApi);

/** Runs an interaction inside act() and lets the promises it starts settle. */
async function settle(interaction: () => unknown = () => undefined) {
  await act(async () => {
    interaction();
    await Promise.resolve();
  });
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search + location.hash}</p>;
}

/** The visible tab panel (the hidden one stays mounted to keep what was typed). */
const panel = () => within(screen.getByRole('tabpanel'));

async function renderAuth(entry = '/auth') {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/auth" element={<AuthPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
  // Let the providers request settle.
  await settle();
}

beforeAll(() => initTestI18n('en'));
beforeEach(() => {
  jest.resetAllMocks();
  localStorage.clear();
  api.providers.mockResolvedValue({ google: false });
});

describe('AuthPage', () => {
  it('opens on the login tab and switches with the hash', async () => {
    await renderAuth();
    expect(screen.getByRole('tab', { name: 'Log in' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Log in' })).toBeVisible();

    fireEvent.click(screen.getByRole('tab', { name: 'Register' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/auth#register');
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeVisible();

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Register' }), { key: 'ArrowLeft' });
    expect(screen.getByTestId('where')).toHaveTextContent('/auth#login');
    expect(screen.getByRole('tab', { name: 'Log in' })).toHaveFocus();
  });

  it('opens the register tab for #register', async () => {
    await renderAuth('/auth#register');
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
  });

  it('disables Google with the not-configured text, and shows Microsoft as coming soon', async () => {
    await renderAuth();
    const google = screen.getByRole('button', { name: /Continue with Google/ });
    expect(google).toHaveAttribute('aria-disabled', 'true');
    expect(google).toHaveTextContent('Google sign-in is not configured on this server');
    fireEvent.click(google);
    expect(api.providerLoginUrl).not.toHaveBeenCalled();
    const microsoft = screen.getByRole('button', { name: /Continue with Microsoft/ });
    expect(microsoft).toHaveAttribute('aria-disabled', 'true');
    expect(microsoft).toHaveAccessibleDescription('Coming soon');
  });

  it('sends the browser to Google when it is configured', async () => {
    api.providers.mockResolvedValue({ google: true });
    api.providerLoginUrl.mockRejectedValue(new ApiError(503, [{ code: 'GOOGLE_NOT_CONFIGURED', message: 'x' }]));
    await renderAuth();
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google).toHaveAttribute('aria-disabled', 'false');
    await settle(() => fireEvent.click(google));
    expect(api.providerLoginUrl).toHaveBeenCalledWith('google');
    expect(screen.getByRole('alert')).toHaveTextContent('Google sign-in is not configured on this server');
  });

  it('after registering shows the confirm-code step with the resend countdown, and can go back', async () => {
    jest.useFakeTimers();
    try {
      api.register.mockResolvedValue({} as never);
      await renderAuth('/auth#register');
      fireEvent.change(panel().getByLabelText('E-mail'), { target: { value: 'Ana@Example.com' } });
      fireEvent.change(panel().getByLabelText(/^Password/), { target: { value: 'Secret!Pass' } });
      fireEvent.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
      await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));

      expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
      expect(screen.getByText('ana@example.com')).toBeInTheDocument();
      expect(screen.getByLabelText('Verification code')).toHaveAttribute('inputmode', 'numeric');
      expect(screen.getByRole('button', { name: /^Resend code in 30\ss$/ })).toBeDisabled();
      await settle(() => jest.advanceTimersByTime(5000));
      expect(screen.getByRole('button', { name: /^Resend code in 25\ss$/ })).toBeDisabled();
      await settle(() => jest.advanceTimersByTime(25000));
      expect(screen.getByRole('button', { name: 'Resend code' })).toBeEnabled();

      fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
      expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
      expect(panel().getByLabelText('E-mail')).toHaveValue('Ana@Example.com');
    } finally {
      jest.useRealTimers();
    }
  });

  it('a reload on the confirm-code step still asks for the code (the step is kept in the history entry)', async () => {
    api.register.mockResolvedValue({} as never);
    let kept: unknown;
    function KeepState() {
      kept = useLocation().state;
      return null;
    }
    const first = render(
      <MemoryRouter initialEntries={['/auth#register']}>
        <Routes>
          <Route path="/auth" element={<AuthPage />} />
        </Routes>
        <KeepState />
      </MemoryRouter>,
    );
    await settle();
    fireEvent.change(panel().getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(panel().getByLabelText(/^Password/), { target: { value: 'Secret!Pass' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    first.unmount();

    // The reload: a fresh page on the same history entry.
    render(
      <MemoryRouter initialEntries={[{ pathname: '/auth', hash: '#register', state: kept }]}>
        <Routes>
          <Route path="/auth" element={<AuthPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await settle();
    expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    // Going back to the form leaves the step for good.
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
  });

  it('verifies the code, stores the tokens and opens /onBoarding', async () => {
    api.register.mockResolvedValue({} as never);
    api.verifyCode
      .mockRejectedValueOnce(new ApiError(400, [{ code: 'INVALID_CODE', message: 'x', field: 'code' }]))
      .mockResolvedValueOnce({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
    await renderAuth('/auth#register');
    fireEvent.change(panel().getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(panel().getByLabelText(/^Password/), { target: { value: 'Secret!Pass' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));

    const code = screen.getByLabelText('Verification code');
    fireEvent.change(code, { target: { value: '12a34' } });
    expect(code).toHaveValue('1234');
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Confirm e-mail' })));
    expect(code).toHaveAccessibleDescription(expect.stringContaining('The code has 6 digits'));
    expect(api.verifyCode).not.toHaveBeenCalled();

    fireEvent.change(code, { target: { value: '123456' } });
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Confirm e-mail' })));
    expect(code).toHaveAccessibleDescription(expect.stringContaining('Invalid code'));

    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Confirm e-mail' })));
    // The password chosen at sign-up goes with the code (kept in memory only): the server keeps it only then.
    expect(api.verifyCode).toHaveBeenLastCalledWith('ana@example.com', '123456', 'Secret!Pass');
    expect(screen.getByTestId('where')).toHaveTextContent('/onBoarding');
    expect(localStorage.getItem('access_token')).toBe('a');
  });

  it('an already verified e-mail on the code step offers "Log in": the login tab with that e-mail, the password next', async () => {
    jest.useFakeTimers();
    try {
      api.register.mockResolvedValue({} as never);
      api.verifyCode.mockRejectedValue(
        new ApiError(400, [{ code: 'ALREADY_VERIFIED', message: 'This user is already verified' }]),
      );
      await renderAuth('/auth#register');
      fireEvent.change(panel().getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
      fireEvent.change(panel().getByLabelText(/^Password/), { target: { value: 'Secret!Pass' } });
      fireEvent.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
      await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
      fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
      await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Confirm e-mail' })));
      expect(screen.getByRole('alert')).toHaveTextContent('This user is already verified. You can log in');

      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
      expect(screen.getByTestId('where')).toHaveTextContent(/^\/auth#login$/);
      expect(screen.getByRole('tab', { name: 'Log in' })).toHaveAttribute('aria-selected', 'true');
      expect(panel().getByLabelText('E-mail')).toHaveValue('ana@example.com');
      expect(panel().getByLabelText(/^Password/)).toHaveFocus();
    } finally {
      jest.useRealTimers();
    }
  });

  it('trades a Google one-time token once and goes to /', async () => {
    api.exchangeToken.mockResolvedValue({ access_token: 'g', refresh_token: 'gr', refresh_Token: 'gr' });
    await renderAuth('/auth?token=one-time');
    expect(api.exchangeToken).toHaveBeenCalledTimes(1);
    expect(api.exchangeToken).toHaveBeenCalledWith('one-time');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('refresh_Token')).toBe('gr');
  });

  it('shows the not-verified message when the exchange fails, and the Google error for ?error=google', async () => {
    api.exchangeToken.mockRejectedValue(new ApiError(400, [{ code: 'INVALID_TOKEN', message: 'x' }]));
    await renderAuth('/auth?token=used');
    expect(screen.getByRole('alert')).toHaveTextContent('the e-mail is not verified yet');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/auth$/);
  });

  it('shows the Google failure of ?error=google', async () => {
    await renderAuth('/auth?error=google');
    expect(screen.getByRole('alert')).toHaveTextContent('Google sign-in failed. Please try again');
  });

  it('"verify now" after NOT_VERIFIED sends a code and opens the code step; a recent code keeps its countdown', async () => {
    api.login.mockRejectedValue(new ApiError(400, [{ code: 'NOT_VERIFIED', message: 'x', field: 'username' }]));
    api.sendCode.mockRejectedValue(
      new ApiError(429, [{ code: 'RESEND_TOO_SOON', message: 'Wait 12 s before asking for a new code' }]),
    );
    await renderAuth();
    fireEvent.change(panel().getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(panel().getByLabelText(/^Password/), { target: { value: 'Secret!Pass' } });
    await settle(() => fireEvent.click(panel().getByRole('button', { name: 'Log in' })));
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Verify now' })));

    expect(api.sendCode).toHaveBeenCalledWith('ana@example.com');
    expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Resend code in 12\ss$/ })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(screen.getByRole('tab', { name: 'Log in' })).toHaveAttribute('aria-selected', 'true');
  });
});
