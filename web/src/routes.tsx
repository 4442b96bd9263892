import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';

import { RequireAuth } from './features/auth/RequireAuth';
import { PublicLayout } from './layout/PublicLayout';

// Every page is its own chunk; the layouts' <Suspense> shows a translated loading line meanwhile. The signed-in
// layout (sidebar, menus, data fetching) is a chunk too, so the auth screens never load it.
const MainLayout = lazy(() => import('./layout/MainLayout'));
const AuthPage = lazy(() => import('./features/auth/pages/AuthPage'));
const ValidateCodePage = lazy(() => import('./features/auth/pages/ValidateCodePage'));
const ForgotPasswordPage = lazy(() => import('./features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('./features/auth/pages/ResetPasswordPage'));
const OnboardingPage = lazy(() => import('./features/onboarding/pages/OnboardingPage'));
const SparkOnboardingPage = lazy(() => import('./features/onboarding/pages/SparkOnboardingPage'));
const ChatHomePage = lazy(() => import('./features/chat/pages/ChatHomePage'));
const SparkChatPage = lazy(() => import('./features/chat/pages/SparkChatPage'));
const SparkTestPage = lazy(() => import('./features/tests/pages/SparkTestPage'));
const MobileTestPage = lazy(() => import('./features/tests/pages/MobileTestPage'));
const SettingsPage = lazy(() => import('./features/settings/pages/SettingsPage'));
const BillingPage = lazy(() => import('./features/billing/pages/BillingPage'));
const DeployPage = lazy(() => import('./features/deploy/pages/DeployPage'));
const ProfilePage = lazy(() => import('./features/profile/pages/ProfilePage'));
const NewSparkPage = lazy(() => import('./features/new-spark/pages/NewSparkPage'));
const CheckoutPage = lazy(() => import('./features/billing/pages/CheckoutPage'));
const AdminPage = lazy(() => import('./features/admin/pages/AdminPage'));
const NotFoundPage = lazy(() => import('./ui/NotFoundPage'));
const PrivacyPolicyPage = lazy(() => import('./features/privacy/pages/PrivacyPolicyPage'));
const AccountDeletedPage = lazy(() => import('./features/privacy/pages/AccountDeletedPage'));
// One chunk for both analytics pages: the chart library comes with it only.
const AnalyticsPage = lazy(() => import('./features/analytics/pages/AnalyticsPage'));
const DocumentPage = lazy(() => import('./features/documents/pages/DocumentPage'));

/**
 * docs/product.md §2 routes. Public: /auth, /validate-code, /forgot-password, /reset-password, /privacy (the privacy
 * policy) and /account-deleted. Protected (redirect to
 * /auth without a token): the onboarding tour, written both /onBoarding and /onboarding, and the catch-all
 * main layout holding every other page; a path nothing claims shows "page not found" inside that layout.
 */
export const routes: RouteObject[] = [
  {
    // What a page throws while rendering shows the error page: RouteErrorBoundary around these routes (main.tsx).
    id: 'root',
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: 'auth', element: <AuthPage /> },
          { path: 'validate-code', element: <ValidateCodePage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: 'privacy', element: <PrivacyPolicyPage /> },
          { path: 'account-deleted', element: <AccountDeletedPage /> },
        ],
      },
      {
        element: (
          <RequireAuth>
            <PublicLayout signedIn />
          </RequireAuth>
        ),
        children: [
          { path: 'onBoarding', caseSensitive: true, element: <OnboardingPage /> },
          { path: 'onboarding', caseSensitive: true, element: <OnboardingPage /> },
          // The local payment provider's checkout: outside the main layout, so no account dialog covers it.
          { path: 'checkout/:sessionId', element: <CheckoutPage /> },
        ],
      },
      {
        element: (
          <RequireAuth>
            <MainLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <ChatHomePage /> },
          { path: 'spark/onboarding', element: <SparkOnboardingPage /> },
          { path: 'spark/:sparkId', element: <SparkChatPage /> },
          { path: 'spark/:sparkId/test/:testId', element: <SparkTestPage /> },
          { path: 'spark/:sparkId/analytics', element: <AnalyticsPage /> },
          { path: 'spark/:sparkId/documents/:documentId', element: <DocumentPage /> },
          { path: 'analytics', element: <AnalyticsPage /> },
          { path: 'mobile-test/:sparkId/:testId', element: <MobileTestPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'billing', element: <BillingPage /> },
          { path: 'deploy', element: <DeployPage /> },
          { path: 'profile', element: <ProfilePage /> },
          { path: 'new-spark', element: <NewSparkPage /> },
          { path: 'admin', element: <AdminPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
