export interface ModelFormInput {
  /** 0 adds a model. */
  id: number;
  name: string;
  urlModelName: string;
  isPublic: boolean;
  restrictedTenants: readonly number[];
  /** A newly chosen image, or null. */
  thumbnailFile: File | null;
  /** No new image: keep the current one (true) or remove it (false). */
  keepThumbnail: boolean;
  /** The .glb: required when adding, optional when replacing. */
  modelFile: File | null;
  /** The version an edit was based on: the API answers 409 when someone saved a newer one meanwhile. */
  version?: number;
}

/**
 * The multipart body of POST /model/update (MODELS-API.md): text fields, restrictedTenants as JSON,
 * thumbnail as a file part, 'null' to keep it or '' to remove it, and the .glb as `file`.
 */
export function toModelFormData(input: ModelFormInput): FormData {
  const form = new FormData();
  form.set('id', String(input.id));
  form.set('name', input.name.trim());
  form.set('urlModelName', input.urlModelName.trim());
  form.set('isPublic', input.isPublic ? 'true' : 'false');
  // A public model is visible to every tenant; a leftover restriction list would only confuse.
  form.set('restrictedTenants', JSON.stringify(input.isPublic ? [] : [...input.restrictedTenants]));
  if (input.thumbnailFile) form.set('thumbnail', input.thumbnailFile, input.thumbnailFile.name);
  else form.set('thumbnail', input.keepThumbnail ? 'null' : '');
  if (input.modelFile) form.set('file', input.modelFile, input.modelFile.name);
  if (input.id > 0 && input.version) form.set('version', String(input.version));
  return form;
}

/** 'Animal Cell (v2)' → 'animal-cell-v2': the URL name suggested while an admin types a new name. */
export const toUrlModelName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');

export const isGlbFile = (file: { name: string }): boolean => /\.glb$/i.test(file.name);

export const isImageFile = (file: { type?: string; name: string }): boolean =>
  file.type ? file.type.startsWith('image/') : /\.(jpe?g|png|svg|webp|gif)$/i.test(file.name);
