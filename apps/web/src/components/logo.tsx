import { Link } from 'react-router-dom';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="logo" aria-label="Helix home">
      <img src="/favicon.svg" alt="" width={32} height={32} />
      <span className="logo-text" aria-hidden>
        Helix
      </span>
    </Link>
  );
}
