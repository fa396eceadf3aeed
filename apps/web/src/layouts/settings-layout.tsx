import { Menu, type MenuProps } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { useSessionUser } from '../session/use-session';
import { selectedSettingsKey, settingsMenuItems } from './settings-menu';

const EXIT = 'exit';

/**
 * /user/settings/*: a side menu (a top bar on narrow screens, by CSS: styles/global.css, so the server's
 * markup is already the final layout) and the settings page.
 */
export function SettingsLayout() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const visible = settingsMenuItems(user);

  const items: MenuProps['items'] = [
    ...visible.map((item) => ({ key: item.key, label: item.label })),
    { type: 'divider' as const },
    { key: EXIT, label: 'Exit' },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === EXIT) return void navigate('/');
    const item = visible.find((i) => i.key === key);
    if (item) void navigate(item.path);
  };
  const selected = selectedSettingsKey(pathname);

  return (
    <div className="settings-layout">
      <nav aria-label="Settings" className="settings-nav">
        <Menu mode="inline" items={items} selectedKeys={selected ? [selected] : []} onClick={onClick} />
      </nav>
      <div className="settings-content">
        <Outlet />
      </div>
    </div>
  );
}

/** /user/settings itself opens the first section this user may use. */
export function SettingsIndex() {
  const first = settingsMenuItems(useSessionUser())[0];
  if (first) return <Navigate to={first.path} replace />;
  return <p>{MSG.unauthorizedPage}</p>;
}
