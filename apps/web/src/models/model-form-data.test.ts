import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ModelUpdate } from '@helix/shared/schemas/model';
import { fieldIssue } from '../forms/zod-rule';
import {
  isGlbFile,
  isImageFile,
  toModelFormData,
  toUrlModelName,
  type ModelFormInput,
} from './model-form-data';

const base: ModelFormInput = {
  id: 0,
  name: ' Heart ',
  urlModelName: 'heart',
  isPublic: false,
  restrictedTenants: [3, 5],
  thumbnailFile: null,
  keepThumbnail: false,
  modelFile: null,
};

describe('toModelFormData', () => {
  it('sends text fields, booleans as text and tenants as JSON', () => {
    const form = toModelFormData(base);
    expect(form.get('id')).toBe('0');
    expect(form.get('name')).toBe('Heart');
    expect(form.get('urlModelName')).toBe('heart');
    expect(form.get('isPublic')).toBe('false');
    expect(form.get('restrictedTenants')).toBe('[3,5]');
    expect(form.get('file')).toBeNull();
    expect(form.get('version')).toBeNull();
  });

  it('drops the tenant list of a public model', () => {
    expect(toModelFormData({ ...base, isPublic: true }).get('restrictedTenants')).toBe('[]');
  });

  it("thumbnail: a file part, 'null' to keep, '' to remove", () => {
    const image = new File(['png'], 'thumb.png', { type: 'image/png' });
    const sent = toModelFormData({ ...base, thumbnailFile: image }).get('thumbnail');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('thumb.png');
    expect(toModelFormData({ ...base, keepThumbnail: true }).get('thumbnail')).toBe('null');
    expect(toModelFormData(base).get('thumbnail')).toBe('');
  });

  it('sends the .glb as file and the edited version', () => {
    const glb = new File(['glTF'], 'heart.glb', { type: 'model/gltf-binary' });
    const form = toModelFormData({ ...base, id: 9, modelFile: glb, version: 4 });
    expect((form.get('file') as File).name).toBe('heart.glb');
    expect(form.get('id')).toBe('9');
    expect(form.get('version')).toBe('4');
  });
});

describe('toUrlModelName', () => {
  it('makes hyphen-separated lowercase words', () => {
    expect(toUrlModelName('Animal Cell (v2)')).toBe('animal-cell-v2');
    expect(toUrlModelName('  Crâne   humain ')).toBe('crane-humain');
    expect(toUrlModelName('---')).toBe('');
  });
});

describe('file checks', () => {
  it('recognises .glb files and images', () => {
    expect(isGlbFile({ name: 'Heart.GLB' })).toBe(true);
    expect(isGlbFile({ name: 'heart.gltf' })).toBe(false);
    expect(isImageFile({ name: 'x.bin', type: 'image/webp' })).toBe(true);
    expect(isImageFile({ name: 'x.png', type: '' })).toBe(true);
    expect(isImageFile({ name: 'x.pdf', type: 'application/pdf' })).toBe(false);
  });
});

describe('the form takes its rules from the shared ModelUpdate schema', () => {
  const values = {
    name: 'Heart',
    urlModelName: 'heart',
    isPublic: true,
    restrictedTenants: [],
    thumbnail: [{ uid: '1', name: 'x.png' }],
    file: [],
  };
  it('gives the catalogue messages verbatim, ignoring the upload fields', () => {
    expect(fieldIssue(ModelUpdate, { ...values, name: ' ' }, 'name')).toBe('Please enter the name of model');
    expect(fieldIssue(ModelUpdate, { ...values, urlModelName: '' }, 'urlModelName')).toBe(
      'Please enter model name to be added to the URL',
    );
    expect(fieldIssue(ModelUpdate, { ...values, urlModelName: 'Not Hyphen' }, 'urlModelName')).toBe(
      MSG.modelUrlNameRule,
    );
    expect(fieldIssue(ModelUpdate, values, 'name')).toBeUndefined();
    expect(fieldIssue(ModelUpdate, values, 'urlModelName')).toBeUndefined();
  });
});
