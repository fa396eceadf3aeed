/** Cookie names and local storage keys of the specification (accounts 3). */
export const COOKIE = {
  apiToken: 'apiToken',
  tenant: 'tenant',
  userId: 'user_id',
  user: 'user',
  authType: 'auth-type',
  paymentIntent: 'payment-intent',
  subscription: 'subscription',
} as const;

export const LOCAL = {
  customBrand: '__custom__brand',
  redirect: '__redirect',
  setupIntent: 'setup-intent',
  /** This browser's own id for offline copies (the server binds each pinned copy to it). */
  deviceId: '__device__id',
} as const;

export const DEFAULT_TENANT = 'services';
export const REMEMBER_ME_DAYS = 365;
