import { MSG } from '@helix/shared';
import {
  BULK_FILE_MAX_BYTES,
  readBulkFile as readBytes,
  type BulkFileRead,
} from '@helix/shared/bulk/bulk-file';
import { INVITE_LIMITS } from '@helix/shared/schemas/invite';

export { SAMPLE_CSV } from '@helix/shared/bulk/bulk-file';

/**
 * Reads an uploaded file with the shared bulk-file reader (encodings, headers, .xlsx cells: see
 * packages/shared/src/bulk and docs/bulk-invite.md). A file over the size cap is refused unread.
 */
export async function readBulkFile(file: File): Promise<BulkFileRead> {
  if (file.size > BULK_FILE_MAX_BYTES)
    return { ok: false, message: MSG.bulkFileTooLarge(INVITE_LIMITS.fileMb) };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { ok: false, message: MSG.bulkFileUnreadable };
  }
  return readBytes({ name: file.name, bytes });
}
