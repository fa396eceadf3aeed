import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { BrandMark } from './brand-mark';
import { UserMenu } from './user-menu';
import { clearUserData } from '../../offline/open-db';
import { OutboxPanel } from '../../offline/outbox-panel';
import { queuedEditCount } from '../../offline/user-data';
import { readTenant } from '../../session/cookies';
import { logout } from '../../session/session';
import { canSeeSettings } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { useScrolledPast } from '../../ui/use-scrolled-past';

// The Help form is loaded when first opened, not with every page.
const QueuedLogoutConfirm = lazy(() =>
  import('./queued-logout-confirm').then((m) => ({ default: m.QueuedLogoutConfirm })),
);
const SupportRequestModal = lazy(() =>
  import('../../pages/support/support-request.modal').then((m) => ({ default: m.SupportRequestModal })),
);

/** The header sticks to the top once the page scrolls past it (accounts 2). */
const STICKY_AFTER_PX = 92;

export function Header() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const sticky = useScrolledPast(STICKY_AFTER_PX);
  // Log Out asking first: how many edits would be lost, and what leaving does.
  const [queuedLogout, setQueuedLogout] = useState<{ queued: number; leave: () => Promise<void> } | null>(
    null,
  );

  /** Log Out clears this user's offline data; queued edits would be lost, so it asks first. */
  const signOut = async () => {
    if (!user) return;
    // Views made offline go out first when the network allows: clearing the user's data drops them.
    await import('../../offline/queued-views')
      .then((m) => m.sendQueuedViews(user.id, readTenant()))
      .catch(() => undefined);
    const queued = await queuedEditCount(user.id);
    const leave = async () => {
      await clearUserData(user.id).catch(() => undefined);
      await logout();
    };
    if (queued === 0) return leave();
    setQueuedLogout({ queued, leave });
  };
  const [helpOpen, setHelpOpen] = useState(false);
  const [helpLoaded, setHelpLoaded] = useState(false);

  return (
    <div className="app-header-slot">
      <header className={sticky ? 'app-header is-sticky' : 'app-header'}>
        {queuedLogout && (
          <Suspense fallback={null}>
            <QueuedLogoutConfirm
              queued={queuedLogout.queued}
              onLeave={queuedLogout.leave}
              onClose={() => setQueuedLogout(null)}
            />
          </Suspense>
        )}
        <BrandMark user={user} />
        {user && (
          <div className="app-header-tools">
            <OutboxPanel />
            <Button
              type="text"
              className="help-button"
              icon={<QuestionCircleOutlined aria-hidden />}
              onClick={() => {
                setHelpLoaded(true);
                setHelpOpen(true);
              }}
              aria-label="Help"
              data-testid="help"
            >
              <span className="help-label">Help</span>
            </Button>
            <UserMenu
              user={user}
              showSettings={canSeeSettings(user)}
              onSettings={() => void navigate('/user/settings')}
              // The route guard takes the signed-out user to login.
              onLogout={() => void signOut()}
            />
          </div>
        )}
        {user && helpLoaded && (
          <Suspense fallback={null}>
            <SupportRequestModal open={helpOpen} onClose={() => setHelpOpen(false)} />
          </Suspense>
        )}
      </header>
    </div>
  );
}
