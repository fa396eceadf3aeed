import { MSG } from '@helix/shared';

export type FailureAction = 'multiple-login' | 'logout' | 'toast';

/**
 * What the app does with a failed call (accounts 4 and 8). A 401 only means "your session is over"
 * when the call carried a session token: the login call answers 401 for a wrong password, and that
 * must stay on the form instead of logging anybody out.
 */
export function classifyFailure(status: number, error: string, sentToken: boolean): FailureAction {
  if (status === 401 && sentToken) return error === MSG.invalidToken ? 'multiple-login' : 'logout';
  return 'toast';
}

/** /login, or /login/{brand} for a white-label visitor. */
export const loginPath = (brand: string | null | undefined): string =>
  brand ? `/login/${encodeURIComponent(brand)}` : '/login';
