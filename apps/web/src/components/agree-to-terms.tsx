import { MSG } from '@helix/shared';

/**
 * The Terms of Service and Privacy Policy as links (new tab): the portal's /terms and /privacy, which
 * are the default pages or redirect to TERMS_URL / PRIVACY_URL (docs/invitation-page.md).
 */
export function AgreeToTerms() {
  return (
    <>
      I agree to the{' '}
      <a href="/terms" target="_blank" rel="noopener noreferrer">
        {MSG.termsLabel}
      </a>{' '}
      and{' '}
      <a href="/privacy" target="_blank" rel="noopener noreferrer">
        {MSG.privacyLabel}
      </a>
    </>
  );
}
