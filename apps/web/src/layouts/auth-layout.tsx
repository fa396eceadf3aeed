import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { Logo } from '../components/logo';
import { rememberBrand } from '../session/local-storage';
import { brandAtom } from '../session/session.atoms';
import { useBrandParam } from '../routing/use-brand';

/** Guest screens (login, sign-up, passwords, plan wizard): one centred card. */
export function AuthLayout({ wide = false }: { wide?: boolean }) {
  const brand = useBrandParam();
  const setBrand = useSetAtom(brandAtom);

  useEffect(() => {
    if (!brand) return;
    // A white-label visitor returns to their brand's login after a logout or an expired session.
    rememberBrand(brand);
    setBrand(brand);
  }, [brand, setBrand]);

  return (
    <div className="auth-layout">
      <header className="auth-header">
        <Logo to="/login" />
      </header>
      <main className={wide ? 'auth-card is-wide' : 'auth-card'}>
        <Outlet />
      </main>
    </div>
  );
}
