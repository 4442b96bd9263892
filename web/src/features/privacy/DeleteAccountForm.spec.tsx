import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';

import enPrivacy from '../../../public/locales/en/privacy.json';
import esPrivacy from '../../../public/locales/es/privacy.json';
import { ApiError } from '../../api/client';
import { initI18n } from '../../i18n';
import { catalogues } from '../../testing/i18n';
import * as privacyApi from './api';
import { DeleteAccountForm } from './DeleteAccountForm';

jest.mock('./api', () => ({
  deletionMethod: jest.fn(),
  sendDeletionCode: jest.fn(),
  deleteAccount: jest.fn(),
}));
const api = jest.mocked(privacyApi);
const EMAIL = 'ana@example.com';

const replace = jest.fn();
beforeAll(async () => {
  await initI18n(i18next.createInstance(), {
    resources: { en: { ...catalogues.en, privacy: enPrivacy }, es: { ...catalogues.es, privacy: esPrivacy } },
    lng: 'en',
  });
});
beforeEach(() => {
  jest.clearAllMocks();
  localStorage.clear();
});

const submit = () => screen.getByRole('button', { name: enPrivacy.delete.submit });
const confirmField = () => screen.getByLabelText(enPrivacy.delete.confirm.replace('{{email}}', EMAIL));

describe('DeleteAccountForm', () => {
  it('stays disabled until the typed e-mail matches (case and spaces aside), then deletes and forgets the account', async () => {
    api.deletionMethod.mockResolvedValue({ method: 'password' });
    api.deleteAccount.mockResolvedValue({ deleted: true, subscriptionCanceled: null });
    localStorage.setItem('access_token', 'a');
    localStorage.setItem('emailForLogin', EMAIL);
    localStorage.setItem('i18nextLng', 'en');
    render(<DeleteAccountForm email={EMAIL} onCancel={() => undefined} onDeleted={replace} />);
    fireEvent.change(await screen.findByLabelText(enPrivacy.delete.password), { target: { value: 'Sup3r-secret!' } });
    expect(submit()).toBeDisabled();
    fireEvent.change(confirmField(), { target: { value: 'ana@example' } });
    expect(submit()).toBeDisabled();
    fireEvent.change(confirmField(), { target: { value: ' ANA@example.com ' } });
    expect(submit()).toBeEnabled();
    fireEvent.click(submit());
    await waitFor(() => expect(replace).toHaveBeenCalled());
    expect(api.deleteAccount).toHaveBeenCalledWith({ confirmation: 'ANA@example.com', password: 'Sup3r-secret!' });
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('emailForLogin')).toBeNull();
    expect(localStorage.getItem('i18nextLng')).toBe('en');
  });

  it("shows the server's refusal under its field and deletes nothing", async () => {
    api.deletionMethod.mockResolvedValue({ method: 'password' });
    api.deleteAccount.mockRejectedValue(
      new ApiError(400, [{ code: 'WRONG_PASSWORD', message: 'That is not your password', field: 'password' }]),
    );
    render(<DeleteAccountForm email={EMAIL} onCancel={() => undefined} onDeleted={replace} />);
    const password = await screen.findByLabelText(enPrivacy.delete.password);
    fireEvent.change(password, { target: { value: 'wrong' } });
    fireEvent.change(confirmField(), { target: { value: EMAIL } });
    fireEvent.click(submit());
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(password.getAttribute('aria-describedby')!)?.textContent).toBe(
      'That is not your password',
    );
    expect(replace).not.toHaveBeenCalled();
  });

  it('an account that signs in with Google asks for a code sent by e-mail', async () => {
    api.deletionMethod.mockResolvedValue({ method: 'code' });
    api.sendDeletionCode.mockResolvedValue({ sent: true, cooldownSeconds: 30 });
    api.deleteAccount.mockResolvedValue({ deleted: true, subscriptionCanceled: null });
    render(<DeleteAccountForm email={EMAIL} onCancel={() => undefined} onDeleted={replace} />);
    fireEvent.click(await screen.findByRole('button', { name: enPrivacy.delete.sendCode }));
    expect(await screen.findByText(enPrivacy.delete.codeSent.replace('{{email}}', EMAIL))).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(enPrivacy.delete.code), { target: { value: '123456' } });
    fireEvent.change(confirmField(), { target: { value: EMAIL } });
    fireEvent.click(submit());
    await waitFor(() => expect(api.deleteAccount).toHaveBeenCalledWith({ confirmation: EMAIL, code: '123456' }));
  });
});
