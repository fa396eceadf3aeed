import { Divider } from 'antd';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { askGoogleSignIn, googleSignInAtom } from '../session/sign-in-providers';
import { GoogleButton } from './google-button';

/**
 * The "or" divider and "Continue with Google", only when the server has a Google provider configured
 * (issue 15): without one the button could only end on the failure page.
 */
export function GoogleSignIn({ type }: { type: 'login' | 'signup' }) {
  const [enabled, setEnabled] = useAtom(googleSignInAtom);
  useEffect(() => {
    if (enabled !== null) return;
    let live = true;
    void askGoogleSignIn().then((answer) => live && setEnabled(answer));
    return () => {
      live = false;
    };
  }, [enabled, setEnabled]);
  if (!enabled) return null;
  return (
    <>
      <Divider plain>or</Divider>
      <GoogleButton type={type} />
    </>
  );
}
