import { MSG } from '@helix/shared';

/**
 * What a failed call does to the UI. The client stays free of React and routing; main.tsx plugs in the
 * real popup, logout and toast once the app exists.
 */
export interface ClientEffects {
  /** 401 'Invalid token': the account was signed in elsewhere. */
  multipleLogin(): void;
  /** Any other 401 on an authenticated call. */
  logout(): void;
  /** A server (or network) message for the user. */
  toastError(message: string): void;
}

let effects: ClientEffects = {
  multipleLogin: () => window.alert(MSG.multipleLogin),
  logout: () => window.location.assign('/login'),
  toastError: (message) => console.error(message),
};

export const setClientEffects = (next: ClientEffects): void => {
  effects = next;
};

export const clientEffects = (): ClientEffects => effects;
