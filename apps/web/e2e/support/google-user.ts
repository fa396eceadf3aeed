/** The Google account the OAuth mock signs in as during the browser tests. */
export const GOOGLE_USER = { sub: 'google-e2e-1', email: 'ada.google@example.com', name: 'Ada Google' };
