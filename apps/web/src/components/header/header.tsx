import {
  DownOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Space, type MenuProps } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { BrandMark } from './brand-mark';
import { clearUserData } from '../../offline/open-db';
import { OutboxPanel } from '../../offline/outbox-panel';
import { queuedEditCount } from '../../offline/user-data';
import { readTenant } from '../../session/cookies';
import { logout } from '../../session/session';
import { canSeeSettings } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { useScrolledPast } from '../../ui/use-scrolled-past';

/** The user menu's items. */
const USER_MENU_ITEMS = [
  { key: 'settings', label: 'Settings' },
  { key: 'logout', label: 'Log Out' },
] as const;

// The Help form is loaded when first opened, not with every page.
const QueuedLogoutConfirm = lazy(() =>
  import('./queued-logout-confirm').then((m) => ({ default: m.QueuedLogoutConfirm })),
);
const SupportRequestModal = lazy(() =>
  import('../../pages/support/support-request.modal').then((m) => ({ default: m.SupportRequestModal })),
);

const ICONS: Record<(typeof USER_MENU_ITEMS)[number]['key'], ReactNode> = {
  settings: <SettingOutlined />,
  logout: <LogoutOutlined />,
};

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
  const [menuOpen, setMenuOpen] = useState(false);
  const [helpLoaded, setHelpLoaded] = useState(false);

  const keys = USER_MENU_ITEMS.filter((i) => i.key !== 'settings' || canSeeSettings(user));
  const items: MenuProps['items'] = keys.map(({ key, label }) => ({ key, label, icon: ICONS[key] }));

  const choose = (key: string) => {
    setMenuOpen(false);
    if (key === 'settings') void navigate('/user/settings');
    // The route guard takes the signed-out user to login.
    if (key === 'logout') void signOut();
  };
  const onClick: MenuProps['onClick'] = ({ key }) => choose(key);

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
          <Space size={4}>
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
            <Dropdown
              menu={{ items, onClick }}
              trigger={['click']}
              placement="bottomRight"
              open={menuOpen}
              onOpenChange={setMenuOpen}
            >
              <Button
                type="text"
                className="user-menu"
                aria-label={`User menu (${user.name})`}
                data-testid="user-menu"
              >
                <Avatar size="small" src={user.profilePicture || undefined} icon={<UserOutlined />} alt="" />
                <span className="user-menu-name" aria-hidden>
                  {user.name}
                </span>
                <DownOutlined aria-hidden />
              </Button>
            </Dropdown>
          </Space>
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
