import { ApiError } from '../../api/client';
import { initTestI18n } from '../../testing/i18n';
import { mapApiError, messageTextFor, secondsIn } from './errors';
import { REGISTER_SERVER_FIELDS } from './components/RegisterForm';

describe('mapApiError', () => {
  it('puts each error under the form input its field maps to, the rest in the form', () => {
    const error = new ApiError(400, [
      { code: 'USER_EXISTS', message: 'A user with this e-mail already exists', field: 'username' },
      { code: 'PASSWORD_NOT_STRONG', message: 'weak', field: 'password' },
      { code: 'TOO_MANY_REQUESTS', message: 'slow down' },
      { code: 'SOMETHING', message: 'other', field: 'unknownField' },
    ]);
    const mapped = mapApiError(error, REGISTER_SERVER_FIELDS);
    expect(mapped.fields).toEqual({
      email: { api: error.errors[0] },
      password: { api: error.errors[1] },
    });
    expect(mapped.form).toEqual([{ api: error.errors[2] }, { api: error.errors[3] }]);
    expect(mapped.codes).toEqual(['USER_EXISTS', 'PASSWORD_NOT_STRONG', 'TOO_MANY_REQUESTS', 'SOMETHING']);
  });

  it('keeps the first error of a field and one form message per code', () => {
    const error = new ApiError(400, [
      { code: 'REQUIRED', message: 'Required field', field: 'username' },
      { code: 'INVALID_EMAIL', message: 'invalid', field: 'username' },
      { code: 'X', message: 'a' },
      { code: 'X', message: 'a' },
    ]);
    const mapped = mapApiError(error, { username: 'email' });
    expect(mapped.fields).toEqual({ email: { api: error.errors[0] } });
    expect(mapped.form).toHaveLength(1);
  });

  it('reads anything that is not an ApiError as UNKNOWN', () => {
    expect(mapApiError(new TypeError('boom'), {}).form).toEqual([{ api: { code: 'UNKNOWN', message: '' } }]);
  });
});

describe('messageTextFor', () => {
  it('translates every server code the screens meet, in both languages', async () => {
    const i18n = await initTestI18n('en');
    const text = messageTextFor(i18n);
    expect(text({ api: { code: 'WRONG_CREDENTIALS', message: 'server text' } })).toBe('Wrong user or password');
    expect(text({ api: { code: 'PASSWORD_MIN', message: 'x' } })).toBe('Minimum 8 characters');
    expect(text({ api: { code: 'RESEND_TOO_SOON', message: 'Wait 12 s before asking for a new code' } })).toBe(
      'Wait 12 s before asking for a new code',
    );
    await i18n.changeLanguage('es');
    expect(text({ api: { code: 'WRONG_CREDENTIALS', message: 'server text' } })).toBe(
      'Usuario o contraseña incorrectos',
    );
    expect(text({ key: 'validation.privacy' })).toBe('Debes aceptar la política de privacidad');
    expect(text({ key: 'validation.min' })).toBe('Mínimo 8 caracteres');
  });

  it('falls back to the server message for an unknown code, and to UNKNOWN without one', async () => {
    const text = messageTextFor(await initTestI18n('en'));
    expect(text({ api: { code: 'BRAND_NEW', message: 'Mensaje del servidor' } })).toBe('Mensaje del servidor');
    expect(text({ api: { code: 'BRAND_NEW', message: '' } })).toBe('Something went wrong. Please try again');
    expect(text({ text: 'as is' })).toBe('as is');
  });
});

describe('secondsIn', () => {
  it('reads the seconds of a RESEND_TOO_SOON message', () => {
    expect(secondsIn('Espera 27 s antes de pedir un nuevo código')).toBe(27);
    expect(secondsIn('no number')).toBeUndefined();
  });
});
