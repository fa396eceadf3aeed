import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { RegisterRequest } from './account.ts';
import { EmbedDetailRequest, ModelListQuery, ModelUpdate, ViewerModelQuery } from './model.ts';
import { TenantParams } from './tenant.ts';
import { opaqueText, optionalText, requiredText } from './text.ts';

const CONTROL = ['\u0000', '\n', '\r', '\t', '\u001f', '\u007f'];

describe('text rules', () => {
  it('requiredText trims, requires, limits and refuses control characters', () => {
    const name = requiredText('Name please', 5);
    expect(name.parse('  Ada ')).toBe('Ada');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('Name please');
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe(MSG.tooLong(5));
    for (const c of CONTROL)
      expect(name.safeParse(`a${c}b`).error?.issues[0]?.message, JSON.stringify(c)).toBe(
        MSG.invalidCharacters,
      );
  });

  it('optionalText and opaqueText refuse control characters too', () => {
    expect(optionalText(10).parse(undefined)).toBeUndefined();
    expect(opaqueText(10).parse(' a.b ')).toBe(' a.b ');
    for (const c of CONTROL) {
      expect(optionalText(10).safeParse(`a${c}b`).success).toBe(false);
      expect(opaqueText(10).safeParse(`a${c}`).success).toBe(false);
    }
  });

  it('is the one rule of the account and model forms', () => {
    const register = RegisterRequest.safeParse({
      name: 'a\u0000b',
      user_name: 'ada',
      email: 'ada@example.test',
      password: 'password1',
    });
    expect(register.error?.issues[0]).toMatchObject({ path: ['name'], message: MSG.invalidCharacters });
    const model = ModelUpdate.safeParse({ name: 'Heart\u0000', urlModelName: 'heart' });
    expect(model.error?.issues[0]).toMatchObject({ path: ['name'], message: MSG.invalidCharacters });
  });
});

describe('query and path parameters', () => {
  const viewer = { model: 'heart-anatomy', subscription: 'v1.abc.def', currentmode: 'standard' };

  it('takes a urlModelName only as the viewer model', () => {
    expect(ViewerModelQuery.parse(viewer)).toEqual(viewer);
    for (const model of ['\u0000', 'a\u0000b', 'Heart', 'heart anatomy', '-heart', 'a'.repeat(101), ''])
      expect(ViewerModelQuery.safeParse({ ...viewer, model }).success, JSON.stringify(model)).toBe(false);
    for (const bad of [{ subscription: 'x\u0000' }, { subscription: '' }, { version: '1\n' }])
      expect(ViewerModelQuery.safeParse({ ...viewer, ...bad }).success, JSON.stringify(bad)).toBe(false);
  });

  it('refuses control characters in the tenant segment, the search and an embed token', () => {
    expect(TenantParams.safeParse({ tenant: 'demo' }).success).toBe(true);
    expect(TenantParams.safeParse({ tenant: 'de\u0000mo' }).success).toBe(false);
    expect(TenantParams.safeParse({ tenant: '' }).success).toBe(false);
    expect(ModelListQuery.safeParse({ search: 'a\u0000' }).success).toBe(false);
    expect(EmbedDetailRequest.safeParse({ token: 'a\u0000' }).success).toBe(false);
    expect(EmbedDetailRequest.safeParse({ token: "' OR 1=1 --" }).success).toBe(true);
  });
});
