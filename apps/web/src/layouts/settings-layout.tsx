import { theme } from 'antd';
import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { useSessionUser } from '../session/use-session';
import { selectedSettingsKey, settingsMenuItems } from './settings-menu';

/**
 * /user/settings/*: a side menu (a top bar on narrow screens, by CSS: styles/global.css, so the server's
 * markup is already the final layout) and the settings page. The menu is a list of links (open in a
 * new tab, the current one marked for screen readers), drawn by the page's own CSS in the school's
 * colours: not antd's Menu, whose styles (73 kB in every settings page the server sends) and code a
 * list of links does not need.
 */
export function SettingsLayout() {
  const user = useSessionUser();
  const { pathname } = useLocation();
  const visible = settingsMenuItems(user);
  const selected = selectedSettingsKey(pathname);
  const { token } = theme.useToken();
  const nav = useRef<HTMLElement>(null);
  // On a narrow screen the menu is a bar scrolled sideways: the current section is brought into it
  // (centred where it can be), not left past the screen's edge.
  useLayoutEffect(() => {
    const bar = nav.current;
    const link = bar?.querySelector<HTMLElement>('.settings-link.is-selected');
    if (!bar || !link || bar.scrollWidth <= bar.clientWidth) return;
    const offset = link.getBoundingClientRect().left - bar.getBoundingClientRect().left;
    bar.scrollLeft = Math.max(0, bar.scrollLeft + offset - (bar.clientWidth - link.offsetWidth) / 2);
  }, [selected]);
  const colours = {
    '--settings-accent': token.colorPrimary,
    '--settings-accent-bg': token.controlItemBgActive,
    '--settings-hover-bg': token.controlItemBgHover,
  } as CSSProperties;

  return (
    <div className="settings-layout">
      <nav ref={nav} aria-label="Settings" className="settings-nav" style={colours}>
        <ul className="settings-menu">
          {visible.map((item) => (
            <li key={item.key}>
              <Link
                to={item.path}
                className={item.key === selected ? 'settings-link is-selected' : 'settings-link'}
                aria-current={item.key === selected ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
          <li className="settings-menu-divider" aria-hidden="true" />
          <li>
            <Link to="/" className="settings-link">
              Exit
            </Link>
          </li>
        </ul>
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
