import { Outlet } from 'react-router-dom';
import { SubscriptionBanner } from '../components/banners/subscription-banner';
import { Header } from '../components/header/header';
import { Sidebar, useHasSidebar } from '../components/sidebar/sidebar';
import { useRefreshOnNavigate } from '../session/use-refresh-on-navigate';

/** Signed-in screens: header on top, page below. */
export function AppLayout() {
  useRefreshOnNavigate();
  const withSidebar = useHasSidebar();
  return (
    <div className="app-layout">
      <Header />
      <div className={withSidebar ? 'app-body with-sidebar' : 'app-body'}>
        <Sidebar />
        <main className="app-main">
          <SubscriptionBanner />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
