import { DownOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import type { SessionUser } from '../../session/session-user';
import { PopoverMenu, type PopoverMenuItem } from '../../ui/popover-menu';

interface UserMenuProps {
  user: SessionUser;
  /** Settings is offered to those who may see it (canSeeSettings). */
  showSettings: boolean;
  onSettings(): void;
  onLogout(): void;
}

/**
 * The header's user menu (the browser's popover, ui/popover-menu.tsx): a tap opens it at once, before
 * or after the app has loaded. antd's Dropdown rendered its menu's code and 30 kB of styles on that
 * tap, the first a tablet's user makes on the home page.
 */
export function UserMenu({ user, showSettings, onSettings, onLogout }: UserMenuProps) {
  const items: PopoverMenuItem[] = [
    ...(showSettings
      ? [{ key: 'settings', label: 'Settings', icon: <SettingOutlined />, href: '/user/settings' }]
      : []),
    { key: 'logout', label: 'Log Out', icon: <LogoutOutlined /> },
  ];
  return (
    <PopoverMenu
      label="User menu"
      items={items}
      onSelect={(key) => (key === 'settings' ? onSettings() : onLogout())}
      trigger={(menu) => (
        <button
          type="button"
          className="text-button user-menu"
          aria-label={`User menu (${user.name})`}
          data-testid="user-menu"
          {...menu}
        >
          <span className="user-avatar" aria-hidden>
            {user.profilePicture ? <img src={user.profilePicture} alt="" /> : <UserOutlined />}
          </span>
          <span className="user-menu-name" aria-hidden>
            {user.name}
          </span>
          <DownOutlined aria-hidden />
        </button>
      )}
    />
  );
}
