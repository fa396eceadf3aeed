import { useSearchParams } from 'react-router-dom';
import { ForgotPasswordPage } from '../forgot-password/forgot-password.page';
import { SetPasswordPage } from './set-password.page';

/** /authentication/reset-password: with a token it sets the password, without one it asks for a link. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  return params.get('token') ? <SetPasswordPage /> : <ForgotPasswordPage />;
}
