import type { UserProfile } from '@sparks/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { SWRConfig } from 'swr';

import enPrivacy from '../../../public/locales/en/privacy.json';
import esPrivacy from '../../../public/locales/es/privacy.json';
import { api, ApiError } from '../../api/client';
import { initI18n } from '../../i18n';
import { catalogues } from '../../testing/i18n';
import { DigestSettings } from './DigestSettings';

jest.mock('../../api/client', () => {
  const actual = jest.requireActual<typeof import('../../api/client')>('../../api/client');
  return { ...actual, api: { get: jest.fn(), patch: jest.fn() } };
});
const client = jest.mocked(api);
const texts = enPrivacy.digest;

const profile = (over: Partial<UserProfile> = {}): UserProfile => ({
  id: 'u',
  _id: 'u',
  username: 'ana@example.com',
  email: 'ana@example.com',
  firstname: 'Ana',
  lastname: '',
  config: { language: 'en' },
  timeZone: 'Europe/Madrid',
  weeklyDigest: true,
  verified: true,
  createdAt: '',
  tenants: [],
  ...over,
});

function renderIt() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <DigestSettings />
    </SWRConfig>,
  );
}

beforeAll(async () => {
  await initI18n(i18next.createInstance(), {
    resources: { en: { ...catalogues.en, privacy: enPrivacy }, es: { ...catalogues.es, privacy: esPrivacy } },
    lng: 'en',
  });
});
beforeEach(() => {
  client.get.mockReset();
  client.patch.mockReset();
});

const open = async () => {
  fireEvent.click(await screen.findByTestId('digest-open'));
  return screen.findByRole('dialog', { name: texts.title });
};
const toggle = () => screen.getByRole('switch', { name: texts.toggle });
const zone = () => screen.getByLabelText(texts.timeZone);

describe('DigestSettings', () => {
  it('says whether the weekly summary is on, and what it is, with the time zone chosen', async () => {
    client.get.mockResolvedValue(profile());
    renderIt();
    const button = await screen.findByTestId('digest-open');
    expect(button).toHaveTextContent(`${texts.open} ${texts.on}`);
    expect(client.get).toHaveBeenCalledWith('/account/profile');
    const dialog = await open();
    expect(dialog).toHaveTextContent(texts.description.replace('{{email}}', 'ana@example.com'));
    expect(toggle()).toBeChecked();
    expect(toggle()).toHaveAccessibleDescription(texts.hint);
    expect(zone()).toHaveValue('Europe/Madrid');
    expect(zone()).toHaveAccessibleDescription(texts.timeZoneHint);
    // The platform's zones, UTC among them, read with spaces.
    expect(screen.getByRole('option', { name: 'America / New York' })).toHaveValue('America/New_York');
    expect(screen.getByRole('option', { name: 'UTC' })).toBeInTheDocument();
  });

  it('turns it off and changes the zone in one PATCH, and the button follows the answer', async () => {
    client.get.mockResolvedValue(profile());
    client.patch.mockResolvedValue(profile({ weeklyDigest: false, timeZone: 'America/New_York' }));
    renderIt();
    await open();
    fireEvent.click(toggle());
    expect(toggle()).not.toBeChecked();
    fireEvent.change(zone(), { target: { value: 'America/New_York' } });
    fireEvent.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(client.patch).toHaveBeenCalledWith('/account/profile', {
      weeklyDigest: false,
      timeZone: 'America/New_York',
    });
    expect(screen.getByTestId('digest-open')).toHaveTextContent(`${texts.open} ${texts.off}`);
  });

  it("offers the browser's zone when the account has none yet, and keeps a zone the list lacks", async () => {
    client.get.mockResolvedValue(profile({ timeZone: null, weeklyDigest: false }));
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const { unmount } = renderIt();
    await open();
    expect(toggle()).not.toBeChecked();
    expect(zone()).toHaveValue(browser);
    unmount();

    client.get.mockResolvedValue(profile({ timeZone: 'Etc/GMT+5' }));
    renderIt();
    await open();
    expect(zone()).toHaveValue('Etc/GMT+5');
  });

  it("shows the server's refusal in the user's words and keeps the dialog open", async () => {
    client.get.mockResolvedValue(profile());
    const message = 'Choose a time zone from the list, such as Europe/Madrid';
    client.patch.mockRejectedValue(new ApiError(400, [{ code: 'TIME_ZONE_INVALID', message, field: 'timeZone' }]));
    renderIt();
    await open();
    fireEvent.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(zone()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    client.patch.mockRejectedValue(new Error('network'));
    fireEvent.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(texts.failed));
  });

  it('Cancel closes without saving', async () => {
    client.get.mockResolvedValue(profile());
    renderIt();
    await open();
    fireEvent.click(toggle());
    fireEvent.click(screen.getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(client.patch).not.toHaveBeenCalled();
    expect(screen.getByTestId('digest-open')).toHaveTextContent(texts.on);
  });
});
