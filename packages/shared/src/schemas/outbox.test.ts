import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../error-codes.ts';
import { currentVersionOf, failureKind, isRetryable, OutboxEntry } from './outbox.ts';

describe('the client rule: retry later, conflict or refused', () => {
  it.each([
    [{}, 'retry'],
    [{ status: 0, code: 'NETWORK' }, 'retry'],
    [{ status: 500, code: ERROR_CODES.internal }, 'retry'],
    [{ status: 503 }, 'retry'],
    [{ status: 429, code: ERROR_CODES.tooManyRequests }, 'retry'],
    [{ status: 409, code: ERROR_CODES.idempotencyInProgress }, 'retry'],
    [{ status: 409, code: ERROR_CODES.versionConflict }, 'conflict'],
    [{ status: 409, code: ERROR_CODES.conflict }, 'refused'],
    [{ status: 403, code: ERROR_CODES.forbidden }, 'refused'],
    [{ status: 422, code: ERROR_CODES.idempotencyKeyReused }, 'refused'],
    [{ status: 400, code: ERROR_CODES.validationFailed }, 'refused'],
  ] as const)('%o is %s', (failure, kind) => {
    expect(failureKind(failure)).toBe(kind);
    expect(isRetryable(failure)).toBe(kind === 'retry');
  });

  it("reads a conflict's current version", () => {
    expect(currentVersionOf({ version: 4 })).toBe(4);
    expect(currentVersionOf({ rolesVersion: 7 }, 'rolesVersion')).toBe(7);
    expect(currentVersionOf(null)).toBeNull();
    expect(currentVersionOf({ version: '4' })).toBeNull();
  });

  it('an outbox entry needs a usable key', () => {
    const entry = {
      key: crypto.randomUUID(),
      userId: 1,
      tenant: 'services',
      kind: 'role.create',
      target: 'role:new:x',
      label: 'Create role x',
      method: 'POST',
      path: '/role/create',
      body: { id: 0, name: 'x' },
      baseVersion: null,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      createdAt: 0,
    };
    expect(OutboxEntry.safeParse(entry).success).toBe(true);
    expect(OutboxEntry.safeParse({ ...entry, key: 'short' }).success).toBe(false);
    expect(OutboxEntry.safeParse({ ...entry, kind: 'model.delete' }).success).toBe(false);
  });
});
