import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError } from './errors.ts';

describe('AppError', () => {
  it('takes only the codes of ERROR_CODES (a code outside it does not type-check)', () => {
    // @ts-expect-error 'NO_SUCH_CODE' is not an ErrorCode (tsc -b fails when AppError.code is a plain string)
    const unknown = new AppError('NO_SUCH_CODE', { status: 400, message: 'x' });
    expect(Object.values(ERROR_CODES)).not.toContain(unknown.code);
    expect(AppError.notFound().code).toBe(ERROR_CODES.notFound);
    expect(AppError.unavailable(ERROR_CODES.redisUnavailable)).toMatchObject({ status: 503, retryAfter: 5 });
  });
});
