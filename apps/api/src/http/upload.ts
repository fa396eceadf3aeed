import { ERROR_CODES } from '@helix/shared/error-codes';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { MSG } from '@helix/shared';
import { AppError } from '@helix/server';

/**
 * multipart/form-data for the model form, kept in memory with a size limit per file field (the .glb
 * and the thumbnail have different limits, multer's own fileSize is one for all). Every multer or
 * busboy failure becomes a clear 4xx in the standard error shape; a request that is not multipart
 * passes untouched (the JSON body parser already ran).
 */
interface UploadField {
  name: string;
  maxBytes: number;
  /** The field error when the file is larger. */
  tooLarge: string;
  /** 413 for the big file, 400 for images (the form shows it on the field). */
  tooLargeStatus?: number;
}

export interface UploadOptions {
  files: UploadField[];
  /** Largest text field (a thumbnail may come as a data URL). */
  maxFieldBytes: number;
  maxFields: number;
}

class LimitedMemoryStorage implements StorageEngine {
  constructor(private readonly limits: Map<string, number>) {}

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ) {
    const max = this.limits.get(file.fieldname) ?? 0;
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: unknown, info?: Partial<Express.Multer.File>) => {
      if (finished) return;
      finished = true;
      cb(error, info);
    };
    file.stream.on('data', (chunk: Buffer) => {
      if (finished) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        finish(new MulterError('LIMIT_FILE_SIZE', file.fieldname));
        file.stream.resume();
        return;
      }
      chunks.push(chunk);
    });
    file.stream.on('error', (error) => finish(error));
    file.stream.on('end', () => finish(null, { buffer: Buffer.concat(chunks), size }));
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void) {
    (file as Partial<Express.Multer.File>).buffer = undefined;
    cb(null);
  }
}

const fieldOf = (error: MulterError) => error.field ?? 'file';

function uploadError(error: unknown, options: UploadOptions): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof MulterError) {
    const field = fieldOf(error);
    const spec = options.files.find((f) => f.name === field);
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new AppError(ERROR_CODES.uploadTooLarge, {
          status: spec?.tooLargeStatus ?? 413,
          message: spec?.tooLarge ?? MSG.bodyTooLarge,
          errors: { [field]: spec?.tooLarge ?? MSG.bodyTooLarge },
        });
      case 'LIMIT_FIELD_VALUE':
        return AppError.badRequest(field === 'thumbnail' ? MSG.fileOver1mb : MSG.uploadFieldTooLarge, {
          [field]: field === 'thumbnail' ? MSG.fileOver1mb : MSG.uploadFieldTooLarge,
        });
      case 'LIMIT_FILE_COUNT':
        return AppError.badRequest(MSG.uploadTooManyFiles, { [field]: MSG.uploadTooManyFiles });
      case 'LIMIT_UNEXPECTED_FILE':
        return spec
          ? AppError.badRequest(MSG.uploadTooManyFiles, { [field]: MSG.uploadTooManyFiles })
          : AppError.badRequest(MSG.uploadUnexpectedFile, {
              [field.slice(0, 100)]: MSG.uploadUnexpectedFile,
            });
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FIELD_COUNT':
        return new AppError(ERROR_CODES.uploadTooManyFields, {
          status: 413,
          message: MSG.uploadTooManyFields,
        });
      default:
        return AppError.badRequest(MSG.uploadInvalid);
    }
  }
  // busboy: a malformed body (no boundary, truncated form, bad headers).
  return AppError.badRequest(MSG.uploadInvalid);
}

export function upload(options: UploadOptions): RequestHandler {
  const limits = new Map(options.files.map((f) => [f.name, f.maxBytes]));
  const middleware = multer({
    storage: new LimitedMemoryStorage(limits),
    limits: {
      fileSize: Math.max(...options.files.map((f) => f.maxBytes)),
      files: options.files.length,
      fields: options.maxFields,
      parts: options.maxFields + options.files.length,
      fieldSize: options.maxFieldBytes,
      fieldNameSize: 100,
      headerPairs: 100,
    },
  }).fields(options.files.map((f) => ({ name: f.name, maxCount: 1 })));
  return (req, res, next) => {
    middleware(req, res, (error?: unknown) => next(error ? uploadError(error, options) : undefined));
  };
}

/** The uploaded files by field name (one each). */
export function uploadedFiles(req: Request): Record<string, Express.Multer.File | undefined> {
  const files = (req.files ?? {}) as Record<string, Express.Multer.File[] | undefined>;
  return Object.fromEntries(Object.entries(files).map(([name, list]) => [name, list?.[0]]));
}
