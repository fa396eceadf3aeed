import { Outlet } from 'react-router-dom';
import { Header } from '../components/header/header';

/** Signed-in screens: header on top, page below. */
export function AppLayout() {
  return (
    <div className="app-layout">
      <Header />
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
