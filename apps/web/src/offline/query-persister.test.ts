import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { isOfflineFailure, offlineSavedAt } from './query-persister';

const savedAt = Date.UTC(2026, 11, 1, 9, 30);

describe('the offline copy of a query', () => {
  it('counts an unreachable server (network, 5xx) as offline, a refusal not', () => {
    expect(isOfflineFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isOfflineFailure(new ApiError(0, 'Network', 'offline'))).toBe(true);
    expect(isOfflineFailure(new ApiError(503, 'Unavailable', 'down'))).toBe(true);
    expect(isOfflineFailure(new ApiError(403, 'Forbidden', 'no'))).toBe(false);
    expect(isOfflineFailure(new ApiError(404, 'Not Found', 'gone'))).toBe(false);
  });

  it('says when the answer shown was saved only while the server cannot be reached', () => {
    const data = [{ id: 1 }];
    const offline = {
      data,
      isError: true,
      error: new ApiError(0, 'Network', 'offline'),
      dataUpdatedAt: savedAt,
    };
    expect(offlineSavedAt(offline)).toBe(savedAt);
    // The server's answer of now: no notice.
    expect(offlineSavedAt({ ...offline, isError: false, error: null })).toBeNull();
    // Nothing saved: the page fails instead.
    expect(offlineSavedAt({ ...offline, data: undefined })).toBeNull();
    // A refusal is not hidden behind an old answer.
    expect(offlineSavedAt({ ...offline, error: new ApiError(403, 'Forbidden', 'no') })).toBeNull();
  });
});
