import { useSetAtom } from 'jotai';
import { ConfigProvider } from 'antd';
import { useEffect } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { brandTheme, useWhiteLabel } from '../branding/use-white-label';
import { Logo } from '../components/logo';
import { rememberBrand } from '../session/local-storage';
import { brandAtom } from '../session/session.atoms';
import { useBrandParam, withBrand } from '../routing/use-brand';

/**
 * Guest screens (login, sign-up, passwords, plan wizard): one centred card. Under a white-label brand
 * (/login/{brand}) or on a tenant's custom domain, the tenant's name, logo and colours replace Helix's.
 */
export function AuthLayout({ wide = false }: { wide?: boolean }) {
  const brand = useBrandParam();
  const setBrand = useSetAtom(brandAtom);
  const look = useWhiteLabel(brand);

  const known = Boolean(brand && look);
  useEffect(() => {
    if (!brand || !known) return;
    // A white-label visitor returns to their brand's login after a logout or an expired session; a
    // brand no school has (a typo, a guess) is not remembered, so it cannot become everyone's login.
    rememberBrand(brand);
    setBrand(brand);
  }, [brand, known, setBrand]);

  const page = (
    <div
      className="auth-layout"
      style={look ? { background: look.backgroundColor } : undefined}
      data-brand={look ? (look.customBrandName ?? look.tenant) : undefined}
    >
      <header className="auth-header">
        {look ? (
          <Link to={withBrand('/login', brand)} className="logo" aria-label={`${look.name} home`}>
            <img
              src={look.brandLogo ?? '/favicon.svg'}
              alt=""
              height={32}
              className="brand-logo"
              data-testid="brand-logo"
            />
            <span className="logo-text" data-testid="brand-name" style={{ color: look.primaryColor }}>
              {look.name}
            </span>
          </Link>
        ) : (
          <Logo to="/login" />
        )}
      </header>
      <main className={wide ? 'auth-card is-wide' : 'auth-card'}>
        <Outlet />
      </main>
    </div>
  );
  return look ? <ConfigProvider theme={brandTheme(look)}>{page}</ConfigProvider> : page;
}
