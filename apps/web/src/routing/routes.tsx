import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { BootScreen } from '../ui/boot-screen';
import { lazyPage } from './lazy-page';
import { RouteGuard } from './route-guard';

/*
 * Every screen is loaded lazily (lazyPage, one chunk per page or layout), so the first page a
 * classroom tablet opens downloads only what it shows. Only the guard and the guest layout are in the
 * entry chunk: they wrap every route. New pages follow the same pattern (apps/web/README.md).
 */
// Rendered only after a crash, so its illustrations are not part of every page's download.
const RouteErrorPage = lazy(() =>
  import('../pages/error/route-error.page').then((m) => ({ default: m.RouteErrorPage })),
);

const authPage = (props: { tab: 'login' | 'signup'; step?: 0 | 1 }) =>
  lazyPage(
    // The sign-up tab comes with its steps (auth.page.tsx, loadSignupFlow).
    () =>
      import('../pages/login/auth.page').then(async (m) =>
        props.tab === 'signup' ? (await m.loadSignupFlow(), m) : m,
      ),
    (m) => <m.AuthPage {...props} />,
  );
const plansPage = (source: 'guest' | 'tenant') =>
  lazyPage(
    () => import('../pages/plans/plans.page'),
    (m) => <m.PlansPage source={source} />,
  );
const modelsPage = () =>
  lazyPage(
    () => import('../pages/models/models.page'),
    (m) => <m.ModelsPage />,
  );
/** The audit log: the owner's (/user/settings/audit-log) and the platform admin's (/audit-log). */
const auditLogPage = () =>
  lazyPage(
    () => import('../pages/audit-log/audit-log.page'),
    (m) => <m.AuditLogPage />,
  );
const forgotPasswordPage = () =>
  lazyPage(
    () => import('../pages/forgot-password/forgot-password.page'),
    (m) => <m.ForgotPasswordPage />,
  );
const setPasswordPage = () =>
  lazyPage(
    () => import('../pages/set-password/set-password.page'),
    (m) => <m.SetPasswordPage />,
  );
const guestSuccessPage = () =>
  lazyPage(
    () => import('../pages/subscription/guest-success.page'),
    (m) => <m.GuestSuccessPage />,
  );
const subscriptionPage = () =>
  lazyPage(
    () => import('../pages/subscription/subscription.page'),
    (m) => <m.SubscriptionPage />,
  );
const successPage = () =>
  lazyPage(
    () => import('../pages/subscription/success.page'),
    (m) => <m.SuccessPage />,
  );
/** /join and /join/:code: a pupil joins a live lesson (server-rendered for a signed-out tablet). */
const joinPage = () =>
  lazyPage(
    () => import('../pages/lessons/join.page'),
    (m) => <m.JoinPage />,
  );
const placeholderPage = (title: string) =>
  lazyPage(
    () => import('../components/placeholder-page'),
    (m) => <m.PlaceholderPage title={title} />,
  );

/** `/login` and `/login/:brand`: the white-label variants of a guest page. */
const branded = (path: string, page: Pick<RouteObject, 'lazy'>): RouteObject[] => [
  { path, ...page },
  { path: `${path}/:brand`, ...page },
];

const placeholder = (path: string, title: string): RouteObject => ({ path, ...placeholderPage(title) });

const authLayout = (wide: boolean) =>
  lazyPage(
    () => import('../layouts/auth-layout'),
    (m) => <m.AuthLayout wide={wide} />,
  );

/** antd's theme and toasts around every screen but embed and share (src/ui/themed.tsx). */
const themed = (children: RouteObject[]): RouteObject => ({
  ...lazyPage(
    () => import('../ui/themed'),
    (m) => <m.ThemedOutlet />,
  ),
  children,
});

/**
 * Every route of both specification documents. Access rules are not here but in guard.ts, applied by
 * RouteGuard at the root, so the table and the rules cannot drift apart per route.
 */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: (
      <Suspense fallback={<BootScreen />}>
        <RouteErrorPage />
      </Suspense>
    ),
    // Shown while the first page's chunk downloads.
    hydrateFallbackElement: <BootScreen />,
    children: [
      // Public pages: no antd on the way to the viewer frame.
      {
        path: '/embed/:token',
        ...lazyPage(
          () => import('../pages/share/embed.page'),
          (m) => <m.EmbedPage />,
        ),
      },
      {
        path: '/share/:token',
        ...lazyPage(
          () => import('../pages/share/embed.page'),
          (m) => <m.SharePage />,
        ),
      },

      // Everything else is built with antd.
      themed([
        // Guest pages (accounts 2).
        {
          ...authLayout(false),
          children: [
            ...branded('/login', authPage({ tab: 'login' })),
            ...branded('/signup', authPage({ tab: 'signup' })),
            { path: '/authentication/register', ...authPage({ tab: 'signup' }) },
            { path: '/register', ...authPage({ tab: 'signup' }) },
            {
              path: '/authentication/reset-password',
              ...lazyPage(
                () => import('../pages/set-password/reset-password.page'),
                (m) => <m.ResetPasswordPage />,
              ),
            },
            ...branded('/forgot-password', forgotPasswordPage()),
            ...branded('/set-password', setPasswordPage()),
            // Live lessons: open to anyone, signed in or not (guard.ts PUBLIC_PATHS).
            { path: '/join', ...joinPage() },
            { path: '/join/:code', ...joinPage() },
          ],
        },
        {
          ...authLayout(true),
          children: [
            ...branded('/choose-subscription', authPage({ tab: 'signup', step: 1 })),
            { path: '/subscription/plans', ...plansPage('guest') },
            { path: '/guest-success/subscribe/:planId', ...guestSuccessPage() },
            { path: '/guest-success/:subscriptionStatus?/:productId?', ...guestSuccessPage() },
          ],
        },
        // The invitee's first page: the school's look comes from the invitation, not from the path.
        {
          path: '/invitation',
          ...lazyPage(
            () => import('../pages/invitation/invitation.page'),
            (m) => <m.InvitationPage />,
          ),
        },
        // A pupil's live lesson: the viewer full-size under a slim bar, no portal around it.
        {
          path: '/lesson/:lessonId',
          ...lazyPage(
            () => import('../pages/lessons/pupil-lesson.page'),
            (m) => <m.PupilLessonPage />,
          ),
        },
        {
          path: '/unauthorized',
          ...lazyPage(
            () => import('../pages/unauthorized/unauthorized.page'),
            (m) => <m.UnauthorizedPage />,
          ),
        },
        {
          path: '/auth/google',
          ...lazyPage(
            () => import('../pages/google-return/google-return.page'),
            (m) => <m.GoogleReturnPage />,
          ),
        },

        // Signed-in pages.
        {
          ...lazyPage(
            () => import('../layouts/app-layout'),
            (m) => <m.AppLayout />,
          ),
          children: [
            placeholder('/', 'Dashboard'),
            { path: '/subscription', ...subscriptionPage() },
            { path: '/success', ...successPage() },
            { path: '/success/subscribe', ...successPage() },
            { path: '/success/subscribe/:planId', ...successPage() },
            { path: '/success/unsubscribe', ...successPage() },
            { path: '/success/:subscriptionStatus?/:productId?', ...successPage() },
            {
              path: '/users',
              ...lazyPage(
                () => import('../pages/platform-users/platform-users.page'),
                (m) => <m.PlatformUsersPage />,
              ),
            },
            {
              path: '/users/add-user',
              ...lazyPage(
                () => import('../pages/platform-users/add-user.page'),
                (m) => <m.AddUserPage />,
              ),
            },
            {
              path: '/users/user-detail/:id',
              ...lazyPage(
                () => import('../pages/users/user-detail.page'),
                (m) => <m.UserDetailPage />,
              ),
            },
            { path: '/models', ...modelsPage() },
            { path: '/user/home', ...modelsPage() },
            {
              path: '/stats',
              ...lazyPage(
                () => import('../pages/stats/stats.page'),
                (m) => <m.StatsPage />,
              ),
            },
            {
              path: '/roles',
              ...lazyPage(
                () => import('../pages/roles/roles.page'),
                (m) => <m.RolesPage />,
              ),
            },
            {
              path: '/permissions',
              ...lazyPage(
                () => import('../pages/permissions/permissions.page'),
                (m) => <m.PermissionsPage />,
              ),
            },
            {
              path: '/news-letter',
              ...lazyPage(
                () => import('../pages/newsletter/newsletter.page'),
                (m) => <m.NewsletterPage />,
              ),
            },
            {
              path: '/support',
              ...lazyPage(
                () => import('../pages/support/support.page'),
                (m) => <m.SupportPage />,
              ),
            },
            { path: '/audit-log', ...auditLogPage() },
            // A teacher's live lesson (the session's `lessons` ability, guard.ts); started from a course.
            {
              path: '/user/lessons/start',
              ...lazyPage(
                () => import('../pages/lessons/start-lesson.page'),
                (m) => <m.StartLessonPage />,
              ),
            },
            {
              path: '/user/lessons/:id',
              ...lazyPage(
                () => import('../pages/lessons/teacher-lesson.page'),
                (m) => <m.TeacherLessonPage />,
              ),
            },
            placeholder('/projects', 'Projects'),
            {
              path: '/user/settings',
              ...lazyPage(
                () => import('../layouts/settings-layout'),
                (m) => <m.SettingsLayout />,
              ),
              children: [
                {
                  index: true,
                  ...lazyPage(
                    () => import('../layouts/settings-layout'),
                    (m) => <m.SettingsIndex />,
                  ),
                },
                {
                  path: 'profile',
                  ...lazyPage(
                    () => import('../pages/profile/profile.page'),
                    (m) => <m.ProfilePage />,
                  ),
                },
                {
                  path: 'branding',
                  ...lazyPage(
                    () => import('../pages/branding/branding.page'),
                    (m) => <m.BrandingPage />,
                  ),
                },
                { path: 'subscription', ...subscriptionPage() },
                {
                  path: 'billing-history',
                  ...lazyPage(
                    () => import('../pages/billing-history/billing-history.page'),
                    (m) => <m.BillingHistoryPage />,
                  ),
                },
                { path: 'audit-log', ...auditLogPage() },
                {
                  path: 'lti',
                  ...lazyPage(
                    () => import('../pages/lti/lti.page'),
                    (m) => <m.LtiPage />,
                  ),
                },
                {
                  path: 'links',
                  ...lazyPage(
                    () => import('../pages/links/links.page'),
                    (m) => <m.LinksPage />,
                  ),
                },
                {
                  path: 'users-list',
                  element: <Outlet />,
                  children: [
                    {
                      index: true,
                      ...lazyPage(
                        () => import('../pages/users/users-list.page'),
                        (m) => <m.UsersListPage />,
                      ),
                    },
                    {
                      path: 'user-detail/:id',
                      ...lazyPage(
                        () => import('../pages/users/user-detail.page'),
                        (m) => <m.UserDetailPage />,
                      ),
                    },
                    {
                      path: 'bulk-user-invite',
                      ...lazyPage(
                        () => import('../pages/users/bulk-invite.page'),
                        (m) => <m.BulkInvitePage />,
                      ),
                    },
                  ],
                },
              ],
            },
            {
              path: '*',
              ...lazyPage(
                () => import('../pages/not-found/not-found.page'),
                (m) => <m.NotFoundPage />,
              ),
            },
          ],
        },
      ]),
    ],
  },
];
