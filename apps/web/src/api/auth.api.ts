import type { AuthType, LoginRequest, RegisterRequest } from '@helix/shared';
import type { SessionUser } from '../session/session-user';
import { baseApi, tenantApi, type RequestOptions } from './client';

export interface AuthResponse {
  authType: AuthType;
  apiToken: string;
  tenant: string;
  user: SessionUser;
  rememberMe?: boolean;
  message?: string;
}

export interface MessageResponse {
  message: string;
}

// The sign-in calls keep their failures on the form (field errors); the server's toast still shows.
export const login = (body: LoginRequest) => baseApi.post<AuthResponse>('/user/login', body);

export const register = (body: RegisterRequest) => baseApi.post<AuthResponse>('/user/register', body);

export const joinByInvite = (body: RegisterRequest & { token: string }) =>
  baseApi.post<AuthResponse>('/user/join', body);

/** Google return page: the page shows its own 'Something went wrong!' on failure. */
export const validateGoogle = (type: 'login' | 'signup', code: string) =>
  baseApi.post<AuthResponse>(
    type === 'login' ? '/user/validate-login' : '/user/validate',
    { type, code },
    {
      toast: false,
    },
  );

export const googleSignInUrl = (type: 'login' | 'signup') => `/api/auth/google?type=${type}`;

export const sendPasswordResetToken = (email: string, brand?: string) =>
  baseApi.post<MessageResponse>('/user/send_password_reset_token', brand ? { email, brand } : { email });

export const resetPassword = (token: string, password: string) =>
  baseApi.post<MessageResponse>('/user/reset_password', { token, password });

export const fetchSessionUser = (options?: RequestOptions) =>
  tenantApi.get<SessionUser>('/user/info', options);

export const logoutOnServer = () =>
  tenantApi.post<void>('/user/logout', {}, { toast: false, sessionEffects: false });
