import {
  DownOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Modal, Space, type MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { MSG } from '@helix/shared';
import { useNavigate } from 'react-router-dom';
import { BrandMark } from './brand-mark';
import { clearUserData } from '../../offline/offline-db';
import { OutboxPanel } from '../../offline/outbox-panel';
import { queuedEditCount } from '../../offline/user-data';
import { readTenant } from '../../session/cookies';
import { logout } from '../../session/session';
import { canSeeSettings } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { useScrolledPast } from '../../ui/use-scrolled-past';
import {
  handover,
  HANDOVER,
  USER_MENU_ITEMS,
  USER_MENU_KEYS_ATTRIBUTE,
  userMenuKeysValue,
  type UserMenuKey,
} from '@helix/shared/handover';
import { takeDrawnMenuUse } from '../../prerender/drawn-user-menu';

// The Help form is loaded when first opened, not with every page.
const SupportRequestModal = lazy(() =>
  import('../../pages/support/support-request.modal').then((m) => ({ default: m.SupportRequestModal })),
);

const ICONS: Record<UserMenuKey, ReactNode> = {
  settings: <SettingOutlined />,
  logout: <LogoutOutlined />,
};

/** The header sticks to the top once the page scrolls past it (accounts 2). */
export const STICKY_AFTER_PX = 92;

export function Header() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const sticky = useScrolledPast(STICKY_AFTER_PX);
  const [modal, modalContext] = Modal.useModal();

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
    void modal.confirm({
      title: MSG.logoutWithQueuedTitle,
      content: MSG.logoutWithQueued(queued),
      okText: MSG.logoutAnyway,
      okButtonProps: { danger: true },
      onOk: leave,
    });
  };
  const [helpOpen, setHelpOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [focusKey, setFocusKey] = useState<UserMenuKey | null>(null);
  const [helpLoaded, setHelpLoaded] = useState(false);

  // The items and their labels are the hand-over contract's, so a drawn page's menu shows the same
  // (prerender/drawn-user-menu.ts).
  const keys = USER_MENU_ITEMS.filter((i) => i.key !== 'settings' || canSeeSettings(user));
  const items: MenuProps['items'] = keys.map(({ key, label }) => ({ key, label, icon: ICONS[key] }));

  const choose = (key: string) => {
    setMenuOpen(false);
    if (key === 'settings') void navigate('/user/settings');
    // The route guard takes the signed-out user to login.
    if (key === 'logout') void signOut();
  };
  const onClick: MenuProps['onClick'] = ({ key }) => choose(key);

  // Over a drawn page: its menu, opened before the app was up, stays open (on the same item), or what
  // was chosen in it is done. Before the browser paints the app's header, so nothing flickers.
  useLayoutEffect(() => {
    const drawn = takeDrawnMenuUse();
    if (!drawn) return;
    if (drawn.chosen) return choose(drawn.chosen);
    setMenuOpen(true);
    setFocusKey(drawn.focused);
    // Once, when the header replaces the drawn one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!menuOpen || !focusKey) return;
    // antd draws the open menu in a portal a frame or two later: the focus goes to the same item there.
    let frames = 0;
    let id = 0;
    const focus = () => {
      const item = document.querySelector<HTMLElement>(
        `.ant-dropdown-menu [role="menuitem"][data-menu-id$="-${focusKey}"]`,
      );
      if (item) {
        item.focus();
        setFocusKey(null);
      } else if ((frames += 1) < 30) id = requestAnimationFrame(focus);
    };
    id = requestAnimationFrame(focus);
    return () => cancelAnimationFrame(id);
  }, [menuOpen, focusKey]);

  return (
    <div className="app-header-slot">
      <header className={sticky ? 'app-header is-sticky' : 'app-header'}>
        {modalContext}
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
              {...handover(HANDOVER.help)}
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
                {...handover(HANDOVER.userMenu)}
                {...{ [USER_MENU_KEYS_ATTRIBUTE]: userMenuKeysValue(keys.map((i) => i.key)) }}
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
