import { Outlet, type RouteObject } from 'react-router-dom';
import { PlaceholderPage } from '../components/placeholder-page';
import { AppLayout } from '../layouts/app-layout';
import { AuthLayout } from '../layouts/auth-layout';
import { SettingsIndex, SettingsLayout } from '../layouts/settings-layout';
import { RouteErrorPage } from '../pages/error/route-error.page';
import { ForgotPasswordPage } from '../pages/forgot-password/forgot-password.page';
import { GoogleReturnPage } from '../pages/google-return/google-return.page';
import { AuthPage } from '../pages/login/auth.page';
import { ModelsPage } from '../pages/models/models.page';
import { NotFoundPage } from '../pages/not-found/not-found.page';
import { PlansPage } from '../pages/plans/plans.page';
import { ResetPasswordPage } from '../pages/set-password/reset-password.page';
import { SetPasswordPage } from '../pages/set-password/set-password.page';
import { EmbedPage } from '../pages/share/embed.page';
import { SharePage } from '../pages/share/share.page';
import { StatsPage } from '../pages/stats/stats.page';
import { UnauthorizedPage } from '../pages/unauthorized/unauthorized.page';
import { RouteGuard } from './route-guard';

/** `/login` and `/login/:brand`: the white-label variants of a guest page. */
const branded = (path: string, element: React.ReactNode): RouteObject[] => [
  { path, element },
  { path: `${path}/:brand`, element },
];

const placeholder = (path: string, title: string): RouteObject => ({
  path,
  element: <PlaceholderPage title={title} />,
});

/**
 * Every route of both specification documents. Access rules are not here but in guard.ts, applied by
 * RouteGuard at the root, so the table and the rules cannot drift apart per route.
 */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteErrorPage />,
    children: [
      // Guest pages (accounts 2).
      {
        element: <AuthLayout />,
        children: [
          ...branded('/login', <AuthPage tab="login" />),
          ...branded('/signup', <AuthPage tab="signup" />),
          { path: '/authentication/register', element: <AuthPage tab="signup" /> },
          { path: '/register', element: <AuthPage tab="signup" /> },
          { path: '/authentication/reset-password', element: <ResetPasswordPage /> },
          ...branded('/forgot-password', <ForgotPasswordPage />),
          ...branded('/set-password', <SetPasswordPage />),
        ],
      },
      {
        element: <AuthLayout wide />,
        children: [
          ...branded('/choose-subscription', <AuthPage tab="signup" step={1} />),
          { path: '/subscription/plans', element: <PlansPage source="guest" /> },
          placeholder('/guest-success/subscribe/:planId', 'Welcome to Helix'),
          placeholder('/guest-success/:subscriptionStatus?/:productId?', 'Welcome to Helix'),
        ],
      },

      // Public pages.
      { path: '/embed/:token', element: <EmbedPage /> },
      { path: '/share/:token', element: <SharePage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      { path: '/auth/google', element: <GoogleReturnPage /> },

      // Signed-in pages.
      {
        element: <AppLayout />,
        children: [
          placeholder('/', 'Dashboard'),
          { path: '/subscription', element: <PlansPage source="tenant" /> },
          placeholder('/success', 'Payment'),
          placeholder('/success/subscribe', 'Payment'),
          placeholder('/success/subscribe/:planId', 'Payment'),
          placeholder('/success/unsubscribe', 'Payment'),
          placeholder('/success/:subscriptionStatus?/:productId?', 'Payment'),
          placeholder('/users', 'Users'),
          placeholder('/users/add-user', 'Add User'),
          placeholder('/users/user-detail/:id', 'User Detail'),
          { path: '/models', element: <ModelsPage /> },
          { path: '/user/home', element: <ModelsPage /> },
          { path: '/stats', element: <StatsPage /> },
          placeholder('/roles', 'Roles'),
          placeholder('/permissions', 'Permissions'),
          placeholder('/news-letter', 'Newsletter Subscribers'),
          placeholder('/projects', 'Projects'),
          {
            path: '/user/settings',
            element: <SettingsLayout />,
            children: [
              { index: true, element: <SettingsIndex /> },
              placeholder('profile', 'Profile'),
              placeholder('branding', 'Branding'),
              placeholder('subscription', 'Subscription'),
              {
                path: 'users-list',
                element: <Outlet />,
                children: [
                  { index: true, element: <PlaceholderPage title="Users" /> },
                  placeholder('user-detail/:id', 'User Detail'),
                  placeholder('bulk-user-invite', 'Bulk Invite'),
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
