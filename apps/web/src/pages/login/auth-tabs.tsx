import { theme } from 'antd';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface AuthTab {
  key: string;
  label: string;
  /** Where the tab goes (each tab is its own URL: /login, /signup). */
  to: string;
}

/**
 * The Login / Sign Up switch: the WAI-ARIA tabs pattern (tablist, tab, tabpanel; arrow keys move
 * between tabs) over two links, one route each. Not antd's Tabs: that brings its overflow menu,
 * dropdown, tooltip and resize measurements into the first page a visitor downloads, for two tabs
 * that never overflow.
 */
export function AuthTabs({
  tabs,
  active,
  children,
}: {
  tabs: AuthTab[];
  active: string;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  const refs = useRef<(HTMLAnchorElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = refs.current[(index + step + tabs.length) % tabs.length];
    next?.focus();
    next?.click();
  };
  return (
    <>
      <div className="auth-tabs" role="tablist">
        {tabs.map((tab, index) => {
          const selected = tab.key === active;
          return (
            <Link
              key={tab.key}
              ref={(el) => {
                refs.current[index] = el;
              }}
              to={tab.to}
              role="tab"
              id={`auth-tab-${tab.key}`}
              aria-selected={selected}
              aria-controls={`auth-panel-${tab.key}`}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'auth-tab is-active' : 'auth-tab'}
              style={selected ? { color: token.colorPrimary, borderColor: token.colorPrimary } : undefined}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </Link>
          );
        })}
      </div>
      <div role="tabpanel" id={`auth-panel-${active}`} aria-labelledby={`auth-tab-${active}`}>
        {children}
      </div>
    </>
  );
}
