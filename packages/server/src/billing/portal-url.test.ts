import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { portalUrl } from './portal-url.ts';

const PUBLIC = 'https://portal.example';

describe('portalUrl', () => {
  it('takes paths and same-origin URLs', () => {
    expect(portalUrl(PUBLIC, '/success/unsubscribe', 'returnUrl')).toBe(
      'https://portal.example/success/unsubscribe',
    );
    expect(
      portalUrl(PUBLIC, 'https://portal.example/success?session_id={CHECKOUT_SESSION_ID}', 'successUrl'),
    ).toBe('https://portal.example/success?session_id={CHECKOUT_SESSION_ID}');
  });

  it('refuses other origins with a 400 on the field', () => {
    for (const bad of [
      'https://evil.example/x',
      '//evil.example/x',
      'http://portal.example/x',
      'https://portal.example.evil.example/',
      'https://user:pw@portal.example/',
      'javascript:alert(1)',
    ]) {
      let error: unknown;
      try {
        portalUrl(PUBLIC, bad, 'returnUrl');
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).errors).toHaveProperty('returnUrl');
    }
  });
});
