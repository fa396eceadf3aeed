import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Menu, type MenuProps } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSessionUser } from '../../session/use-session';
import { selectedSidebarKey, sidebarItems } from './sidebar-items';
import './sidebar.css';

/**
 * The platform admin's sidebar beside the page; on a phone (the spec's 450 px outside the settings
 * screens) it folds into a Menu button that opens it in a drawer. Which one shows is CSS's
 * (sidebar.css), so the server's markup is already the phone's or the laptop's layout.
 */
export function Sidebar() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const items = sidebarItems(user);
  if (items.length === 0) return null;

  const selected = selectedSidebarKey(pathname);
  const menuItems: MenuProps['items'] = items.map((item) => ({ key: item.key, label: item.label }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = items.find((i) => i.key === key);
    setOpen(false);
    if (item) void navigate(item.path);
  };
  const menu = (
    <Menu
      mode="inline"
      items={menuItems}
      selectedKeys={selected ? [selected] : []}
      onClick={onClick}
      className="sidebar-menu"
    />
  );

  return (
    <nav aria-label="Administration" className="sidebar">
      <div className="sidebar-phone">
        <Button icon={<MenuOutlined />} onClick={() => setOpen(true)} data-testid="sidebar-toggle">
          Menu
        </Button>
        {open && (
          <Drawer placement="left" open onClose={() => setOpen(false)} title="Menu" size={260}>
            {menu}
          </Drawer>
        )}
      </div>
      <div className="sidebar-wide">{menu}</div>
    </nav>
  );
}

/** Whether the signed-in user gets the sidebar (the layout uses it to add the sidebar column). */
export function useHasSidebar(): boolean {
  return sidebarItems(useSessionUser()).length > 0;
}
