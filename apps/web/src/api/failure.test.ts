import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ApiError } from './api-error';
import { classifyFailure, loginPath } from './failure';

describe('classifyFailure', () => {
  it("opens the multiple-login popup for 401 'Invalid token'", () => {
    expect(classifyFailure(401, 'Invalid token', true)).toBe('multiple-login');
  });
  it('logs out on any other 401 of an authenticated call', () => {
    expect(classifyFailure(401, 'Unauthorized', true)).toBe('logout');
  });
  it('keeps a 401 of a call without a token (wrong password) on the page', () => {
    expect(classifyFailure(401, 'Unauthorized', false)).toBe('toast');
  });
  it('toasts everything else', () => {
    for (const status of [0, 400, 403, 404, 409, 429, 500])
      expect(classifyFailure(status, 'x', true)).toBe('toast');
  });
});

describe('loginPath', () => {
  it('adds the brand suffix when set', () => {
    expect(loginPath(null)).toBe('/login');
    expect(loginPath('acme')).toBe('/login/acme');
    expect(loginPath('a b')).toBe('/login/a%20b');
  });
});

describe('ApiError', () => {
  it('carries the server body', () => {
    const e = ApiError.fromResponse(409, 'Conflict', {
      statusCode: 409,
      error: 'Conflict',
      message: 'This email is already registered.',
      errors: { email: MSG.emailTaken },
    });
    expect([e.statusCode, e.error, e.message, e.errors]).toEqual([
      409,
      'Conflict',
      MSG.emailTaken,
      { email: MSG.emailTaken },
    ]);
  });
  it('drops a string errors value', () => {
    const e = ApiError.fromResponse(400, 'Bad Request', {
      statusCode: 400,
      error: 'Bad Request',
      message: 'm',
      errors: 'x',
    });
    expect(e.errors).toBeUndefined();
  });
  it('falls back to the default message for a body that is not an API error', () => {
    const e = ApiError.fromResponse(502, 'Bad Gateway', '<html>');
    expect([e.statusCode, e.message]).toEqual([502, MSG.defaultError]);
  });
});
