import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import * as authApi from '../api';
import { ConfirmCodeStep } from './ConfirmCodeStep';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

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
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function inRouter(ui: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={['/auth']}>
      <Routes>
        <Route path="/auth" element={ui} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

function type(label: RegExp | string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function submit(name: string) {
  await settle(() => fireEvent.click(screen.getByRole('button', { name })));
}

/** The text of an input's error, read through aria-describedby as a screen reader would. */
function describedError(input: HTMLElement) {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field__error'));
  return error?.textContent ?? null;
}

let i18n: Awaited<ReturnType<typeof initTestI18n>>;
beforeAll(async () => {
  i18n = await initTestI18n('en');
});
beforeEach(async () => {
  jest.resetAllMocks();
  localStorage.clear();
  await i18n.changeLanguage('en');
});

describe('RegisterForm', () => {
  const onRegistered = jest.fn();

  function fillValid() {
    type('E-mail', 'ana@example.com');
    type(/^Password/, 'Secret!Pass');
  }

  it('links the privacy policy it asks to accept, in a new tab (issue 30)', () => {
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    const link = screen.getByRole('link', { name: 'privacy policy' });
    expect(link).toHaveAttribute('href', '/privacy');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('requires the privacy policy before calling the server (docs/product.md §5)', async () => {
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    fillValid();
    await submit('Create account');

    const privacy = screen.getByRole('checkbox', { name: 'I have read and accept the privacy policy' });
    expect(privacy).toHaveAttribute('aria-invalid', 'true');
    expect(describedError(privacy)).toBe('You must accept the privacy policy');
    expect(privacy).toHaveFocus();
    expect(api.register).not.toHaveBeenCalled();

    api.register.mockResolvedValue({} as never);
    fireEvent.click(privacy);
    await submit('Create account');
    expect(api.register).toHaveBeenCalledWith('ana@example.com', 'Secret!Pass', 'en');
    expect(onRegistered).toHaveBeenCalledWith('ana@example.com', 'Secret!Pass');
  });

  it('says it in Spanish: "Debes aceptar la política de privacidad"', async () => {
    await i18n.changeLanguage('es');
    render(<RegisterForm language="es" onRegistered={onRegistered} />);
    type('Correo electrónico', 'ana@example.com');
    type(/^Contraseña/, 'Secret!Pass');
    await submit('Crear cuenta');
    expect(screen.getByText('Debes aceptar la política de privacidad')).toBeInTheDocument();
  });

  it('checks e-mail and password first and focuses the first invalid field', async () => {
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    type('E-mail', 'ana.example.com');
    type(/^Password/, 'short');
    await submit('Create account');
    const email = screen.getByLabelText('E-mail');
    expect(describedError(email)).toBe('Enter a valid e-mail address');
    expect(email).toHaveFocus();
    expect(describedError(screen.getByLabelText(/^Password/))).toBe('Minimum 8 characters');
    expect(api.register).not.toHaveBeenCalled();
  });

  it('ticks the password hints as they are met', () => {
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    const hints = () =>
      within(screen.getByText('Your password needs').parentElement!)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-met'));
    expect(hints()).toEqual(['false', 'false', 'false', 'false']);
    type(/^Password/, 'abc');
    expect(hints()).toEqual(['true', 'false', 'false', 'false']);
    type(/^Password/, 'abcdefgH');
    expect(hints()).toEqual(['true', 'true', 'true', 'false']);
    type(/^Password/, 'abcdefgH#');
    expect(hints()).toEqual(['true', 'true', 'true', 'true']);
  });

  it('shows each server error under its field, translated by code (error-code → field mapping)', async () => {
    api.register.mockRejectedValue(
      new ApiError(400, [
        { code: 'USER_EXISTS', message: 'server words', field: 'username' },
        { code: 'PASSWORD_NOT_STRONG', message: 'server words', field: 'password' },
      ]),
    );
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    fillValid();
    fireEvent.click(screen.getByRole('checkbox'));
    await submit('Create account');

    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(describedError(email)).toBe('A user with this e-mail already exists');
    expect(email).toHaveFocus();
    expect(describedError(screen.getByLabelText(/^Password/))).toMatch(/^Password is not strong enough/);
    expect(onRegistered).not.toHaveBeenCalled();

    // The messages follow a language switch.
    await act(() => i18n.changeLanguage('es'));
    expect(describedError(screen.getByLabelText('Correo electrónico'))).toBe(
      'Ya existe un usuario con este correo electrónico',
    );
  });

  it('puts INVALID_DOMAIN under the e-mail and an unknown code’s server message in the form alert', async () => {
    api.register.mockRejectedValue(
      new ApiError(400, [
        { code: 'INVALID_DOMAIN', message: 'x', field: 'username' },
        { code: 'NEW_CODE', message: 'Server says hi' },
      ]),
    );
    render(<RegisterForm language="en" onRegistered={onRegistered} />);
    fillValid();
    fireEvent.click(screen.getByRole('checkbox'));
    await submit('Create account');
    expect(describedError(screen.getByLabelText('E-mail'))).toBe('The domain is invalid');
    expect(screen.getByRole('alert')).toHaveTextContent('Server says hi');
  });
});

describe('LoginForm', () => {
  const onVerify = jest.fn<Promise<void>, [string, string]>();
  beforeEach(() => onVerify.mockResolvedValue(undefined));

  it('validates before calling: required e-mail, minimum 8 characters', async () => {
    inRouter(<LoginForm onVerify={onVerify} />);
    type(/^Password/, 'short');
    await submit('Log in');
    expect(describedError(screen.getByLabelText('E-mail'))).toBe('Required field');
    expect(describedError(screen.getByLabelText(/^Password/))).toBe('Minimum 8 characters');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(api.login).not.toHaveBeenCalled();
  });

  it('shows wrong credentials in the form alert, in the UI language', async () => {
    await i18n.changeLanguage('es');
    api.login.mockRejectedValue(new ApiError(400, [{ code: 'WRONG_CREDENTIALS', message: 'x' }]));
    inRouter(<LoginForm onVerify={onVerify} />);
    type('Correo electrónico', 'ana@example.com');
    type(/^Contraseña/, 'Wrong!pass1');
    await submit('Iniciar sesión');
    expect(screen.getByRole('alert')).toHaveTextContent('Usuario o contraseña incorrectos');
    expect(screen.getByTestId('where')).toHaveTextContent('/auth');
  });

  it('asks for the e-mailed code past the account’s limit of failed logins, and sends it with the password', async () => {
    api.login.mockRejectedValueOnce(new ApiError(400, [{ code: 'LOGIN_CODE_REQUIRED', message: 'x', field: 'code' }]));
    inRouter(<LoginForm onVerify={onVerify} />);
    type('E-mail', 'ana@example.com');
    type(/^Password/, 'Secret!Pass');
    await submit('Log in');
    expect(screen.getByRole('status')).toHaveTextContent('we e-mailed a code to ana@example.com');
    expect(screen.getByLabelText(/^Code from the e-mail/)).toHaveFocus();
    await submit('Log in');
    expect(describedError(screen.getByLabelText(/^Code from the e-mail/))).toBe('Required field');
    expect(api.login).toHaveBeenCalledTimes(1);

    api.login.mockRejectedValueOnce(new ApiError(400, [{ code: 'INVALID_CODE', message: 'x', field: 'code' }]));
    type(/^Code from the e-mail/, '123456');
    await submit('Log in');
    expect(api.login).toHaveBeenLastCalledWith('ana@example.com', 'Secret!Pass', '123456');
    expect(describedError(screen.getByLabelText(/^Code from the e-mail/))).toBe('Invalid code');

    api.login.mockResolvedValueOnce({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
    type(/^Code from the e-mail/, '654321');
    await submit('Log in');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it('stores the tokens and the remembered e-mail, then goes to /', async () => {
    api.login.mockResolvedValue({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
    inRouter(<LoginForm onVerify={onVerify} />);
    type('E-mail', 'ana@example.com');
    type(/^Password/, 'Secret!Pass');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await submit('Log in');
    expect(api.login).toHaveBeenCalledWith('ana@example.com', 'Secret!Pass');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect({ ...localStorage }).toEqual({
      i18nextLng: 'en',
      access_token: 'a',
      refresh_token: 'r',
      refresh_Token: 'r',
      rememberMe: 'true',
      emailForLogin: 'ana@example.com',
    });
  });

  it('prefills the remembered e-mail', () => {
    localStorage.setItem('rememberMe', 'true');
    localStorage.setItem('emailForLogin', 'ana@example.com');
    inRouter(<LoginForm onVerify={onVerify} />);
    expect(screen.getByLabelText('E-mail')).toHaveValue('ana@example.com');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).toBeChecked();
  });

  it('offers "verify now" for a user who has not verified the e-mail', async () => {
    api.login.mockRejectedValue(new ApiError(400, [{ code: 'NOT_VERIFIED', message: 'x', field: 'username' }]));
    inRouter(<LoginForm onVerify={onVerify} />);
    type('E-mail', 'ana@example.com');
    type(/^Password/, 'Secret!Pass');
    await submit('Log in');
    expect(screen.getByRole('alert')).toHaveTextContent('Your e-mail is not verified yet');
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
    await submit('Verify now');
    expect(onVerify).toHaveBeenCalledWith('ana@example.com', 'Secret!Pass');
  });
});

describe('ConfirmCodeStep without the sign-up password in memory (a reload)', () => {
  it('offers the password as optional, sends it when typed, and shows a wrong one under it', async () => {
    api.verifyCode.mockRejectedValueOnce(
      new ApiError(400, [{ code: 'WRONG_PASSWORD', message: 'x', field: 'password' }]),
    );
    inRouter(
      <ConfirmCodeStep email="ana@example.com" cooldown={0} onBack={() => undefined} onLogIn={() => undefined} />,
    );
    type('Verification code', '123456');
    type(/^Password you chose when signing up/, 'Secret!Pass');
    await submit('Confirm e-mail');
    expect(api.verifyCode).toHaveBeenLastCalledWith('ana@example.com', '123456', 'Secret!Pass');
    expect(describedError(screen.getByLabelText(/^Password you chose when signing up/))).toBe(
      'That is not the password you chose when signing up',
    );

    api.verifyCode.mockResolvedValueOnce({ access_token: 'a', refresh_token: 'r', refresh_Token: 'r' });
    type(/^Password you chose when signing up/, '');
    await submit('Confirm e-mail');
    expect(api.verifyCode).toHaveBeenLastCalledWith('ana@example.com', '123456', undefined);
  });

  it('asks for no password when the page has it', () => {
    inRouter(
      <ConfirmCodeStep
        email="ana@example.com"
        password="Secret!Pass"
        cooldown={0}
        onBack={() => undefined}
        onLogIn={() => undefined}
      />,
    );
    expect(screen.queryByLabelText(/^Password you chose when signing up/)).toBeNull();
  });
});
