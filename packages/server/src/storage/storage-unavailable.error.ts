import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG } from '@helix/shared';
import { AppError } from '../errors.ts';

/** How long a client should wait before trying a write again (a full or read-only disk is not fixed in a second). */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/**
 * File-system failures of the storage folder that are the store's fault, not the request's: no
 * permission, immutable, full (disk or quota), read-only, I/O error, out of file handles.
 */
const STORAGE_FAULTS = new Set([
  'EPERM',
  'EACCES',
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EIO',
  'EMFILE',
  'ENFILE',
  'EBUSY',
]);

export const isStorageFault = (error: unknown): boolean =>
  STORAGE_FAULTS.has((error as NodeJS.ErrnoException | null)?.code ?? '');

/**
 * Object storage failed (issue 16): 503 STORAGE_UNAVAILABLE with Retry-After, named as storage so an
 * operator looks at the disk or the bucket, not at the image check. Carries the adapter's error as
 * `cause` for the log; `field` puts the message on the form's field.
 */
export class StorageUnavailableError extends AppError {
  constructor(cause?: unknown, field?: string) {
    super(ERROR_CODES.storageUnavailable, {
      status: 503,
      message: MSG.storageUnavailable,
      error: 'Service Unavailable',
      errors: field ? { [field]: MSG.storageUnavailable } : undefined,
      retryAfter: STORAGE_RETRY_AFTER_SECONDS,
    });
    this.cause = cause;
  }
}
