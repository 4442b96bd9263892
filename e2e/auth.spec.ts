import { expect, test, type Page } from '@playwright/test';

import { catalogues, type Lang } from './support/catalogues';
import { E2E_PASSWORD, signUp } from './support/account';
import { loginCode, resetLinkPath, verificationCode } from './support/outbox';
import { snap } from './support/shots';

/**
 * The auth screens against the real api + worker (docs/product.md §2, §4, §5, §8): register → code from the dev outbox →
 * /onBoarding → log out → log in remembered → forgot → reset link → new password → signed in; in English and
 * in Spanish (switched on /auth), plus wrong credentials, the Google button and the validate-code page.
 */

test.use({ locale: 'en-US' });

const PASSWORD = 'Sparks!2024';
const NEW_PASSWORD = 'Brand#New2025';

async function openAuth(page: Page, lang: Lang, hash = '') {
  await page.goto(`/auth${hash}`);
  const { auth, languageName } = catalogues[lang];
  if (lang !== 'en')
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: languageName }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.title);
}

for (const lang of ['en', 'es'] as const) {
  const { auth, common } = catalogues[lang];

  test(`register, verify, log out, log in remembered and reset the password (${lang})`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const email = `e2e.${lang}.${Date.now()}@example.com`;

    // — /auth, login tab by default; the Google button is off on this server —
    await openAuth(page, lang);
    await expect(page.getByRole('tab', { name: auth.tabs.login })).toHaveAttribute('aria-selected', 'true');
    const google = page.getByRole('button', { name: new RegExp(auth.social.google) });
    await expect(google).toBeDisabled();
    await expect(google).toContainText(auth.social.googleNotConfigured);
    await expect(page.getByRole('button', { name: new RegExp(auth.social.microsoft) })).toContainText(
      auth.social.comingSoon,
    );
    await snap(page, `${lang}-01-login`);

    // — register: client checks first (privacy policy), then the server —
    await page.getByRole('tab', { name: auth.tabs.register }).click();
    await expect(page).toHaveURL(/\/auth#register$/);
    const register = page.getByRole('tabpanel', { name: auth.tabs.register });
    await register.getByRole('button', { name: auth.register.submit }).click();
    await expect(register.getByLabel(auth.fields.email)).toHaveAttribute('aria-invalid', 'true');
    await expect(register.getByLabel(auth.fields.email)).toBeFocused();
    await expect(register.getByText(auth.validation.privacy)).toBeVisible();
    await snap(page, `${lang}-02-register-errors`);

    await register.getByLabel(auth.fields.email).fill(email);
    await register.getByLabel(auth.fields.password, { exact: true }).fill(PASSWORD);
    await register.getByRole('checkbox', { name: auth.register.privacy.replace(/<\/?policy>/g, '') }).check();
    await expect(register.locator('.checklist__item--met')).toHaveCount(4);
    await snap(page, `${lang}-03-register-filled`);
    await register.getByRole('button', { name: auth.register.submit }).click();

    // — the confirm-code step, inside /auth —
    await expect(page.getByRole('heading', { name: auth.verify.title })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByRole('button', { name: /\d+\ss$/ })).toBeDisabled(); // resend countdown
    await snap(page, `${lang}-04-confirm-code`);
    const code = await verificationCode(request, email);
    await page.getByLabel(auth.fields.code).fill(code);
    await page.getByRole('button', { name: auth.verify.submit }).click();
    await expect(page).toHaveURL(/\/onBoarding$/);
    await snap(page, `${lang}-05-onboarding`);

    // — log out —
    await page.getByRole('button', { name: common.nav.logout }).click();
    await expect(page).toHaveURL(/\/auth$/);
    expect(await page.evaluate<string | null>("localStorage.getItem('access_token')")).toBeNull();

    // — wrong password: the translated wrong-credentials text —
    const login = page.getByRole('tabpanel', { name: auth.tabs.login });
    await login.getByLabel(auth.fields.email).fill(email);
    await login.getByLabel(auth.fields.password, { exact: true }).fill('Wrong!pass1');
    await login.getByRole('button', { name: auth.login.submit }).click();
    await expect(login.getByRole('alert')).toHaveText(auth.errors.WRONG_CREDENTIALS);
    await snap(page, `${lang}-06-login-wrong-credentials`);

    // — log in, remembered —
    await login.getByLabel(auth.fields.password, { exact: true }).fill(PASSWORD);
    await login.getByRole('checkbox', { name: auth.login.rememberMe }).check();
    await login.getByRole('button', { name: auth.login.submit }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeVisible();
    await snap(page, `${lang}-07-home`);

    await page.goto('/auth');
    await expect(login.getByLabel(auth.fields.email)).toHaveValue(email);
    await expect(login.getByRole('checkbox', { name: auth.login.rememberMe })).toBeChecked();
    await snap(page, `${lang}-08-login-remembered`);

    // — forgot password → reset link from the outbox —
    await login.getByRole('link', { name: auth.login.forgot }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.forgot.title);
    await page.getByRole('button', { name: auth.forgot.submit }).click();
    await expect(page.getByText(auth.validation.required)).toBeVisible();
    await page.getByLabel(auth.fields.email).fill('not-an-email');
    await page.getByRole('button', { name: auth.forgot.submit }).click();
    await expect(page.getByText(auth.validation.invalidParams)).toBeVisible();
    await snap(page, `${lang}-09-forgot`);
    await page.getByLabel(auth.fields.email).fill(email);
    await page.getByRole('button', { name: auth.forgot.submit }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.forgot.sentTitle);
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByRole('link', { name: auth.forgot.backToLogin })).toBeVisible();
    await snap(page, `${lang}-10-forgot-sent`);

    await page.goto(await resetLinkPath(request, email));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.reset.title);
    const newPassword = page.getByLabel(auth.fields.newPassword, { exact: true });
    const strength = page.getByTestId('strength-label');
    await newPassword.fill('abcdefgh');
    await expect(strength).toContainText(auth.reset.strength.notStrong);
    await newPassword.fill('abcdefgH');
    await expect(strength).toContainText(auth.reset.strength.normal);
    await newPassword.fill('abcdefgH1');
    await expect(strength).toContainText(auth.reset.strength.strong);
    await newPassword.fill(NEW_PASSWORD);
    await expect(strength).toContainText(auth.reset.strength.veryStrong);
    await page.getByLabel(auth.fields.repeatPassword, { exact: true }).fill(`${NEW_PASSWORD}x`);
    await expect(page.getByText(auth.reset.notSame)).toBeVisible();
    await snap(page, `${lang}-11-reset`);
    await page.getByRole('button', { name: auth.reset.submit }).click();
    await expect(page.getByText(auth.validation.same)).toBeVisible();
    await page.getByLabel(auth.fields.repeatPassword, { exact: true }).fill(NEW_PASSWORD);
    await expect(page.getByText(auth.reset.same)).toBeVisible();
    await page.getByRole('button', { name: auth.reset.submit }).click();

    // — signed in with the new password —
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeVisible();
    expect(await page.evaluate<string | null>("localStorage.getItem('refresh_Token')")).toBeTruthy();

    // The link worked once.
    await page.goto(await resetLinkPath(request, email));
    await page.getByLabel(auth.fields.newPassword, { exact: true }).fill('Another#Pass1');
    await page.getByLabel(auth.fields.repeatPassword, { exact: true }).fill('Another#Pass1');
    await page.getByRole('button', { name: auth.reset.submit }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.reset.invalidTitle);
    await expect(page.getByRole('link', { name: auth.reset.requestNew })).toHaveAttribute('href', '/forgot-password');
    await snap(page, `${lang}-12-reset-link-used`);
  });

  test(`past the account's limit of failed logins, login asks for the e-mailed code (${lang})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const account = await signUp(request, lang, 'e2e-lockout');
    // Someone else guesses from 6 addresses, 9 times each: past the account-wide limit (50).
    for (let n = 0; n < 6; n += 1) {
      for (let k = 0; k < 9; k += 1) {
        const res = await request.post('/api/v1/auth/login', {
          headers: { 'X-Forwarded-For': `198.19.${lang === 'en' ? 1 : 2}.${n + 1}` },
          data: { username: account.email, password: `Wrong-${n}-${k}!` },
        });
        expect(res.status()).toBe(400);
      }
    }

    // The owner, from an address the account does not know: asked for the code, not refused.
    await openAuth(page, lang);
    const login = page.getByRole('tabpanel', { name: auth.tabs.login });
    await login.getByLabel(auth.fields.email).fill(account.email);
    await login.getByLabel(auth.fields.password, { exact: true }).fill(E2E_PASSWORD);
    await login.getByRole('button', { name: auth.login.submit }).click();
    await expect(login.getByText(auth.login.codeSent.replace('{{email}}', account.email))).toBeVisible();
    const codeField = login.getByLabel(auth.login.codeLabel);
    await expect(codeField).toBeFocused();
    await snap(page, `${lang}-15-login-code-asked`);

    await codeField.fill('000000');
    await login.getByRole('button', { name: auth.login.submit }).click();
    await expect(login.getByText(auth.errors.INVALID_CODE)).toBeVisible();
    await snap(page, `${lang}-16-login-code-wrong`);

    await codeField.fill(await loginCode(request, account.email));
    await login.getByRole('button', { name: auth.login.submit }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeVisible();
  });

  test(`validate-code page and reset without a token (${lang})`, async ({ page }) => {
    await openAuth(page, lang);
    await page.goto('/validate-code?username=&valid=');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.validateCode.title);
    await page.getByRole('button', { name: auth.validateCode.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(auth.validation.invalidParams);
    await expect(page.getByLabel(auth.fields.email)).toBeFocused();
    await expect(page.getByRole('button', { name: auth.verify.resend })).toBeEnabled();
    await snap(page, `${lang}-13-validate-code`);

    // An unknown user: the server's USER_NOT_FOUND, translated.
    await page.getByLabel(auth.fields.email).fill(`nobody.${Date.now()}@example.com`);
    await page.getByLabel(auth.fields.code).fill('123456');
    await page.getByRole('button', { name: auth.validateCode.submit }).click();
    await expect(page.getByText(auth.errors.USER_NOT_FOUND)).toBeVisible();

    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.reset.missingTitle);
    await expect(page.getByRole('link', { name: auth.reset.requestNew })).toBeVisible();
    await snap(page, `${lang}-14-reset-missing-token`);

    await page.goto('/auth?error=google');
    await expect(page.getByRole('alert')).toHaveText(auth.errors.GOOGLE_FAILED);
  });
}
