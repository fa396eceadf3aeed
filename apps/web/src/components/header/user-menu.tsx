import { DownOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useRef, type KeyboardEvent, type MouseEvent, type ToggleEvent } from 'react';
import type { SessionUser } from '../../session/session-user';

const MENU_ID = 'user-menu-list';

interface UserMenuProps {
  user: SessionUser;
  /** Settings is offered to those who may see it (canSeeSettings). */
  showSettings: boolean;
  onSettings(): void;
  onLogout(): void;
}

/**
 * The header's user menu: the browser's own popover (opened by the button with no script, closed by
 * Escape or a tap outside, focus back on the button), placed under the button by CSS anchor positioning.
 * A tap opens it at once, before or after the app has loaded: antd's Dropdown rendered its menu's
 * code and 30 kB of styles on the tap (and its styles on every signed-in page's first screen).
 */
export function UserMenu({ user, showSettings, onSettings, onLogout }: UserMenuProps) {
  const list = useRef<HTMLDivElement>(null);
  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  /** Opened from the keyboard or by a tap, the first item takes the focus (WAI-ARIA menu button). */
  const onToggle = (event: ToggleEvent<HTMLDivElement>) => {
    if (event.newState === 'open') items()[0]?.focus();
  };

  /** Up and Down move between the items, Home and End to the first and last. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    all[next]?.focus();
  };

  const choose = (action: () => void) => (event: MouseEvent) => {
    event.preventDefault();
    list.current?.hidePopover();
    action();
  };

  return (
    <>
      <button
        type="button"
        className="user-menu"
        popoverTarget={MENU_ID}
        aria-haspopup="menu"
        aria-label={`User menu (${user.name})`}
        data-testid="user-menu"
      >
        <span className="user-avatar" aria-hidden>
          {user.profilePicture ? <img src={user.profilePicture} alt="" /> : <UserOutlined />}
        </span>
        <span className="user-menu-name" aria-hidden>
          {user.name}
        </span>
        <DownOutlined aria-hidden />
      </button>
      <div
        id={MENU_ID}
        ref={list}
        className="user-menu-list"
        popover="auto"
        role="menu"
        aria-label="User menu"
        onToggle={onToggle}
        onKeyDown={onKeyDown}
      >
        {showSettings && (
          <a href="/user/settings" role="menuitem" onClick={choose(onSettings)}>
            <SettingOutlined aria-hidden /> Settings
          </a>
        )}
        <button type="button" role="menuitem" onClick={choose(onLogout)}>
          <LogoutOutlined aria-hidden /> Log Out
        </button>
      </div>
    </>
  );
}
