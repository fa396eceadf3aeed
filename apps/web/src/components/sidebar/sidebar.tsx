import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Menu, type MenuProps } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSessionUser } from '../../session/use-session';
import { BREAKPOINT } from '../../ui/theme';
import { useMediaQuery } from '../../ui/use-media-query';
import { selectedSidebarKey, sidebarItems } from './sidebar-items';
import './sidebar.css';

/**
 * The platform admin's sidebar beside the page; on a phone (the spec's 450 px outside the settings
 * screens) it folds into a Menu button that opens it in a drawer.
 */
export function Sidebar() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const phone = useMediaQuery(`(max-width: ${BREAKPOINT.other}px)`);
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

  if (phone) {
    return (
      <nav aria-label="Administration" className="sidebar is-phone">
        <Button icon={<MenuOutlined />} onClick={() => setOpen(true)} data-testid="sidebar-toggle">
          Menu
        </Button>
        <Drawer placement="left" open={open} onClose={() => setOpen(false)} title="Menu" size={260}>
          {menu}
        </Drawer>
      </nav>
    );
  }
  return (
    <nav aria-label="Administration" className="sidebar">
      {menu}
    </nav>
  );
}

/** Whether the signed-in user gets the sidebar (the layout uses it to add the sidebar column). */
export function useHasSidebar(): boolean {
  return sidebarItems(useSessionUser()).length > 0;
}
