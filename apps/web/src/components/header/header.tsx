import {
  DownOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Logo } from '../logo';
import { logout } from '../../session/session';
import { canSeeSettings } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { useScrolledPast } from '../../ui/use-scrolled-past';

// The Help form is loaded when first opened, not with every page.
const SupportRequestModal = lazy(() =>
  import('../../pages/support/support-request.modal').then((m) => ({ default: m.SupportRequestModal })),
);

/** The header sticks to the top once the page scrolls past it (accounts 2). */
export const STICKY_AFTER_PX = 92;

export function Header() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const sticky = useScrolledPast(STICKY_AFTER_PX);
  const [helpOpen, setHelpOpen] = useState(false);
  const [helpLoaded, setHelpLoaded] = useState(false);

  const items: MenuProps['items'] = [
    ...(canSeeSettings(user) ? [{ key: 'settings', label: 'Settings', icon: <SettingOutlined /> }] : []),
    { key: 'logout', label: 'Log Out', icon: <LogoutOutlined /> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'settings') void navigate('/user/settings');
    // The route guard takes the signed-out user to login.
    if (key === 'logout') void logout();
  };

  return (
    <div className="app-header-slot">
      <header className={sticky ? 'app-header is-sticky' : 'app-header'}>
        <Logo />
        {user && (
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
        )}
        {user && helpLoaded && (
          <Suspense fallback={null}>
            <SupportRequestModal open={helpOpen} onClose={() => setHelpOpen(false)} />
          </Suspense>
        )}
        {user && (
          <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
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
        )}
      </header>
    </div>
  );
}
