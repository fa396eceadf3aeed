import { describe, expect, it, vi } from 'vitest';
import { ModelLoadError } from './load-model.ts';
import { resolveModelSource, type ModelLookup, type ModelSource } from './model-source.ts';
import { parseViewerParams } from './params.ts';

const base = 'https://viewer.test/';

describe('resolveModelSource', () => {
  it('uses src, settings and branding from the query', async () => {
    const params = parseViewerParams(
      '?src=https://cdn.test/cell.glb&settings=info,layers&bg=%23112233&loading=/img/l.png&version=2',
    );
    const source = await resolveModelSource(params, { base, allowSrc: true });
    expect(source).toMatchObject({
      glbUrl: 'https://cdn.test/cell.glb',
      settings: ['info', 'layers'],
      branding: {
        backgroundColor: '#112233',
        backgroundImage: null,
        loadingImage: 'https://viewer.test/img/l.png',
      },
      mode: 'embedding',
      version: '2',
    });
  });

  it('treats a non-colour bg as a background image; bgcolor and bgimage can be given together', async () => {
    const a = await resolveModelSource(parseViewerParams('?src=a.glb&bg=https://cdn.test/bg.jpg'), {
      base,
      allowSrc: true,
    });
    expect(a.branding).toMatchObject({ backgroundColor: null, backgroundImage: 'https://cdn.test/bg.jpg' });
    const b = await resolveModelSource(parseViewerParams('?src=a.glb&bgcolor=white&bgimage=/bg.png'), {
      base,
      allowSrc: true,
    });
    expect(b.branding).toMatchObject({
      backgroundColor: 'white',
      backgroundImage: 'https://viewer.test/bg.png',
    });
  });

  it('answers 404 when there is neither src nor a lookup', async () => {
    await expect(resolveModelSource(parseViewerParams('?model=x'), { base })).rejects.toMatchObject({
      kind: 'not-found',
      status: 404,
    });
  });

  it('rejects a src that is not an http(s) URL', async () => {
    await expect(
      resolveModelSource(parseViewerParams('?src=javascript:alert(1)'), { base, allowSrc: true }),
    ).rejects.toBeInstanceOf(ModelLoadError);
  });

  it('resolves the catalogue model through a pluggable lookup', async () => {
    const found: ModelSource = {
      glbUrl: 'https://api.test/models/7.glb',
      settings: ['info'],
      branding: { backgroundColor: null, backgroundImage: null, loadingImage: null, primaryColor: null },
      mode: 'standard',
      title: 'Heart',
      description: null,
      version: '1',
      transparent: false,
      record: false,
    };
    const lookup = async (p: { model: string | null }) => (p.model === '7' ? found : null);
    await expect(
      resolveModelSource(parseViewerParams('?model=7&currentmode=standard'), { base, lookup }),
    ).resolves.toBe(found);
    await expect(resolveModelSource(parseViewerParams('?model=8'), { base, lookup })).rejects.toMatchObject({
      kind: 'not-found',
    });
    const limited = async () => {
      throw new ModelLoadError('limit', 429);
    };
    await expect(
      resolveModelSource(parseViewerParams('?model=7'), { base, lookup: limited }),
    ).rejects.toMatchObject({ kind: 'limit' });
  });

  it('ignores src and the other development parameters unless allowSrc is set', async () => {
    // Default (production): a src without a catalogue model is 'Model not found'.
    const lookup = vi.fn<ModelLookup>(async () => null);
    for (const allowSrc of [undefined, false]) {
      await expect(
        resolveModelSource(parseViewerParams('?src=https://evil.test/x.glb&name=Hi&bg=red'), {
          base,
          allowSrc,
          lookup,
        }),
      ).rejects.toMatchObject({ kind: 'not-found', status: 404 });
    }
    expect(lookup).not.toHaveBeenCalled();

    // With a catalogue model the API decides; the development parameters never reach the lookup.
    const found: ModelSource = {
      glbUrl: 'https://api.test/models/7.glb',
      settings: ['info'],
      branding: { backgroundColor: null, backgroundImage: null, loadingImage: null, primaryColor: null },
      mode: 'embedding',
      title: 'Heart',
      description: null,
      version: null,
      transparent: false,
      record: false,
    };
    const api = vi.fn<ModelLookup>(async () => found);
    const query =
      '?model=7&subscription=s&src=https://evil.test/x.glb&settings=info&bg=red&loading=/l.png&name=X';
    await expect(resolveModelSource(parseViewerParams(query), { base, lookup: api })).resolves.toBe(found);
    expect(api).toHaveBeenCalledTimes(1);
    expect(api.mock.calls[0]![0]).toMatchObject({
      model: '7',
      subscription: 's',
      src: null,
      settings: null,
      bg: null,
      loading: null,
      name: null,
    });

    // Allowed (tests, development): src wins and the lookup is not asked.
    const direct = await resolveModelSource(parseViewerParams(query), { base, lookup: api, allowSrc: true });
    expect(direct).toMatchObject({ glbUrl: 'https://evil.test/x.glb', title: 'X', settings: ['info'] });
    expect(api).toHaveBeenCalledTimes(1);
  });
});
