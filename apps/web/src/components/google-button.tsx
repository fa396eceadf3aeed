import { GoogleOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { googleSignInUrl } from '../api/auth.api';

/** A full navigation: the OAuth round trip runs through the API (the service worker lets /api pass). */
export function GoogleButton({ type }: { type: 'login' | 'signup' }) {
  return (
    <Button
      block
      icon={<GoogleOutlined aria-hidden />}
      onClick={() => window.location.assign(googleSignInUrl(type))}
    >
      {/* Not "Log in with Google": it would share its accessible name with the Log In button. */}
      Continue with Google
    </Button>
  );
}
