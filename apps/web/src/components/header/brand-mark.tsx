import { Link } from 'react-router-dom';
import { useTenantLook } from '../../branding/tenant-look';
import type { SessionUser } from '../../session/session-user';
import { Logo } from '../logo';

/** The header's mark: the school's logo and brand name in its colour when it has set them, else Helix. */
export function BrandMark({ user }: { user: SessionUser | null }) {
  const look = useTenantLook(user);
  if (!look) return <Logo />;
  // The school's name: the brand name is the slug of its white-label addresses (/login/{brand}).
  const name = look.name;
  return (
    <Link to="/" className="logo" aria-label={`${name} home`} data-testid="header-brand">
      <img src={look.brandLogo ?? '/favicon.svg'} alt="" height={32} className="brand-logo" />
      <span className="logo-text" style={{ color: look.primaryColor }}>
        {name}
      </span>
    </Link>
  );
}
