import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';

import { LogoutButton } from '../features/auth/components/LogoutButton';
import { useAccountLanguage } from '../features/account/useAccountLanguage';
import { AppFooter } from '../ui/AppFooter';
import { AppHeader } from '../ui/AppHeader';
import { PageLoading } from '../ui/PageLoading';

/** Signed in (the onboarding tour): "Log out", and the language switch changes the account's language. */
function SignedInHeader() {
  const chooseLanguage = useAccountLanguage();
  return (
    <AppHeader onLanguageChange={chooseLanguage}>
      <LogoutButton />
    </AppHeader>
  );
}

/**
 * Layout of the auth screens and the onboarding tour: the shell header, one centred card, the footer.
 * `signedIn` (the onboarding tour) adds "Log out" to the header.
 */
export function PublicLayout({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <div className="shell shell--public">
      {signedIn ? <SignedInHeader /> : <AppHeader />}
      <main className="public-main" id="main">
        <div className="card">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <AppFooter />
    </div>
  );
}
