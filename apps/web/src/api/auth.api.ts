import type { LoginRequest, RegisterRequest } from '@helix/shared';
import { AuthProvidersView, AuthResponse, SessionUser } from '@helix/shared/schemas/session';
import { baseApi, tenantApi, type RequestOptions } from './client';

export { AuthResponse };

export interface MessageResponse {
  message: string;
}

// The sign-in calls keep their failures on the form (field errors); the server's toast still shows.
// Every answer is parsed with the shared schema the server presents with (ARCHITECTURE 3.16).
const asAuth = (answer: unknown): AuthResponse => AuthResponse.parse(answer);

export const login = (body: LoginRequest) => baseApi.post<unknown>('/user/login', body).then(asAuth);

export const register = (body: RegisterRequest) => baseApi.post<unknown>('/user/register', body).then(asAuth);

export const joinByInvite = (body: RegisterRequest & { token: string }) =>
  baseApi.post<unknown>('/user/join', body).then(asAuth);

/** Google return page: the page shows its own 'Something went wrong!' on failure. */
export const validateGoogle = (type: 'login' | 'signup', code: string) =>
  baseApi
    .post<unknown>(
      type === 'login' ? '/user/validate-login' : '/user/validate',
      { type, code },
      {
        toast: false,
      },
    )
    .then(asAuth);

export const googleSignInUrl = (type: 'login' | 'signup') => `/api/auth/google?type=${type}`;

export const sendPasswordResetToken = (email: string, brand?: string) =>
  baseApi.post<MessageResponse>('/user/send_password_reset_token', brand ? { email, brand } : { email });

export const resetPassword = (token: string, password: string) =>
  baseApi.post<MessageResponse>('/user/reset_password', { token, password });

export const fetchSessionUser = (options?: RequestOptions): Promise<SessionUser> =>
  tenantApi.get<unknown>('/user/info', options).then((answer) => SessionUser.parse(answer));

export const logoutOnServer = () =>
  tenantApi.post<void>('/user/logout', {}, { toast: false, sessionEffects: false });

/** Which sign-in providers the server has configured (GET /api/auth/providers, base, no session). */
export const fetchAuthProviders = async (): Promise<AuthProvidersView> =>
  AuthProvidersView.parse(await baseApi.get<unknown>('/auth/providers', { toast: false }));
