import { EMBED_FLAGS } from '@helix/shared/embed';
import { MSG } from '@helix/shared/messages';
import { describe, expect, it, vi } from 'vitest';
import { createApiLookup, userTextFor, viewerModelUrl } from './api-lookup.ts';
import { LOAD_ERROR_MESSAGES, ModelLoadError } from './load-model.ts';
import { resolveModelSource } from './model-source.ts';
import { parseViewerParams } from './params.ts';

const API = 'https://api.test';
const base = 'https://viewer.test/';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const answer = (over: Record<string, unknown> = {}) => ({
  name: 'Animal cell',
  glbUrl: `${API}/api/files/models/7?v=3&exp=1&sig=abc`,
  settings: [...EMBED_FLAGS],
  branding: {
    backgroundColor: '#102030',
    primaryColor: '#5f51fb',
    modelBgLogo: `${API}/api/files/images/bg.webp`,
    modelLoadingLogo: `${API}/api/files/images/loading.webp`,
  },
  ...over,
});

/** A fetch mock answering `response` (or throwing it) and recording the calls. */
function mockFetch(response: Response | Error) {
  return vi.fn<typeof fetch>(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
}

async function failure(promise: Promise<unknown>): Promise<ModelLoadError> {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModelLoadError);
  return e as ModelLoadError;
}

const embedParams = parseViewerParams(
  '?model=animal-cell&subscription=tok123&currentmode=embedding&version=3',
);
const standardParams = parseViewerParams(
  '?model=animal-cell&subscription=ticket.abc&currentmode=standard&version=3',
);

describe('viewerModelUrl', () => {
  it('sends model, subscription, currentmode and version, leaving out empty ones', () => {
    expect(viewerModelUrl(`${API}/`, embedParams)).toBe(
      `${API}/api/viewer/model?model=animal-cell&subscription=tok123&currentmode=embedding&version=3`,
    );
    expect(viewerModelUrl(API, parseViewerParams('?model=a%20b&subscription=x%2By'))).toBe(
      `${API}/api/viewer/model?model=a+b&subscription=x%2By&currentmode=embedding`,
    );
  });

  it("passes the page's viewer id on, so the API counts a viewer's reloads once", () => {
    const params = parseViewerParams(
      '?model=cell&subscription=tok&currentmode=embedding&viewer=AbCdEfGhIjKlMnOp',
    );
    expect(viewerModelUrl(API, params)).toBe(
      `${API}/api/viewer/model?model=cell&subscription=tok&currentmode=embedding&viewer=AbCdEfGhIjKlMnOp`,
    );
  });
});

describe('createApiLookup', () => {
  it('calls the API once, without credentials, and maps the answer', async () => {
    const fetch = mockFetch(json(200, answer()));
    const source = await resolveModelSource(embedParams, {
      base,
      lookup: createApiLookup({ apiUrl: API, fetch }),
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(
      `${API}/api/viewer/model?model=animal-cell&subscription=tok123&currentmode=embedding&version=3`,
    );
    expect(init).toMatchObject({ method: 'GET', mode: 'cors', credentials: 'omit', cache: 'no-store' });
    expect(source).toEqual({
      glbUrl: `${API}/api/files/models/7?v=3&exp=1&sig=abc`,
      settings: [...EMBED_FLAGS],
      branding: {
        backgroundColor: '#102030',
        backgroundImage: `${API}/api/files/images/bg.webp`,
        loadingImage: `${API}/api/files/images/loading.webp`,
        primaryColor: '#5f51fb',
      },
      mode: 'embedding',
      title: 'Animal cell',
      description: null,
      version: '3',
      transparent: false,
      record: false,
    });
  });

  it('takes transparent (embedding only) and record (standard only) from the answer, never from the frame', async () => {
    const both = { transparentBackground: true, record: true };
    const embed = await createApiLookup({ apiUrl: API, fetch: mockFetch(json(200, answer(both))) })(
      embedParams,
    );
    expect(embed).toMatchObject({ transparent: true, record: false });
    const modal = await createApiLookup({ apiUrl: API, fetch: mockFetch(json(200, answer(both))) })(
      standardParams,
    );
    expect(modal).toMatchObject({ transparent: false, record: true });
    const edited = parseViewerParams(
      '?model=animal-cell&subscription=tok&currentmode=standard&record=true&bg=transparent',
    );
    const plain = await createApiLookup({ apiUrl: API, fetch: mockFetch(json(200, answer())) })(edited);
    expect(plain).toMatchObject({ transparent: false, record: false });
  });

  it('uses exactly the flags the API returns, ignoring the frame’s own settings and branding', async () => {
    const params = parseViewerParams(
      '?model=animal-cell&subscription=tok&settings=info,draw,layers&bg=%23ff0000&name=Evil',
    );
    const fetch = mockFetch(json(200, answer({ settings: ['info', 'center_model', 'nonsense', 3] })));
    const source = await createApiLookup({ apiUrl: API, fetch })(params);
    expect(source?.settings).toEqual(['info', 'center_model']);
    expect(source?.title).toBe('Animal cell');
    // background / background_color are off: the branding colour and image are not used.
    expect(source?.branding).toEqual({
      backgroundColor: null,
      backgroundImage: null,
      loadingImage: `${API}/api/files/images/loading.webp`,
      primaryColor: '#5f51fb',
    });
  });

  it('keeps center_model off in standard mode (the modal’s fixed feature set)', async () => {
    const fetch = mockFetch(json(200, answer()));
    const source = await createApiLookup({ apiUrl: API, fetch })(standardParams);
    expect(source?.mode).toBe('standard');
    expect(source?.settings).toEqual(EMBED_FLAGS.filter((f) => f !== 'center_model'));
    expect(fetch.mock.calls[0]![0]).toContain('currentmode=standard');
  });

  it("asks for a live lesson's frame like the modal: center_model off, no recording, a backdrop", async () => {
    const lesson = parseViewerParams('?model=animal-cell&subscription=seat.abc&currentmode=lesson');
    const fetch = mockFetch(json(200, answer({ transparentBackground: true, record: true })));
    const source = await createApiLookup({ apiUrl: API, fetch })(lesson);
    expect(source).toMatchObject({ mode: 'lesson', transparent: false, record: false });
    expect(source?.settings).toEqual(EMBED_FLAGS.filter((f) => f !== 'center_model'));
    expect(fetch.mock.calls[0]![0]).toContain('currentmode=lesson');
    expect(fetch.mock.calls[0]![0]).not.toContain('kept');
  });

  it('maps 404 to "Model not found", 403 to "Access denied", 429 to the school view-limit panel', async () => {
    const cases = [
      [404, { statusCode: 404, error: 'NOT_FOUND', message: 'Not found' }, 'not-found', null],
      [
        403,
        { statusCode: 403, error: 'FORBIDDEN', message: 'This link is not valid or is no longer available.' },
        'forbidden',
        'This link is not valid or is no longer available.',
      ],
      [429, { statusCode: 429, error: 'TOO_MANY_REQUESTS', message: 'View limit reached' }, 'limit', null],
      [
        429,
        { statusCode: 429, error: 'TOO_MANY_REQUESTS', message: 'Too many attempts, please wait.' },
        'limit',
        'Too many attempts, please wait.',
      ],
      [
        500,
        { statusCode: 500, error: 'INTERNAL', message: 'Something went wrong' },
        'http',
        'Something went wrong',
      ],
      [502, '<html>Bad gateway</html>', 'http', null],
    ] as const;
    for (const [status, body, kind, userText] of cases) {
      const fetch = mockFetch(typeof body === 'string' ? new Response(body, { status }) : json(status, body));
      const err = await failure(
        resolveModelSource(embedParams, { base, lookup: createApiLookup({ apiUrl: API, fetch }) }),
      );
      expect(err).toMatchObject({ kind, status, userText });
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it("sends the frame's ancestor origins in embedding mode, and shows a limited link's refusal in its own words", async () => {
    const fetch = mockFetch(
      json(403, {
        statusCode: 403,
        error: 'Forbidden',
        code: 'EMBED_HOST_NOT_ALLOWED',
        message: MSG.embedHostNotAllowed,
      }),
    );
    const ancestors = () => ['http://portal.test', 'https://www.school.org'];
    const err = await failure(
      resolveModelSource(embedParams, { base, lookup: createApiLookup({ apiUrl: API, fetch, ancestors }) }),
    );
    expect(err).toMatchObject({ kind: 'not-allowed', status: 403, userText: null });
    expect(LOAD_ERROR_MESSAGES['not-allowed'].title).toBe(MSG.embedHostNotAllowed);
    const url = new URL(String(fetch.mock.calls[0]![0]));
    expect(url.searchParams.get('ancestors')).toBe('http://portal.test https://www.school.org');
    // Standard mode (the portal's modal) sends none.
    const standard = parseViewerParams('?model=cell&subscription=ticket&currentmode=standard');
    expect(viewerModelUrl(API, standard, ancestors())).not.toContain('ancestors');
  });

  it('sends the viewer token it kept for the link (embedding only) and keeps the one the answer gives', async () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    const minted = `vw1.${'p'.repeat(60)}.${'s'.repeat(43)}`;
    const first = mockFetch(json(200, answer({ viewer: minted })));
    await createApiLookup({ apiUrl: API, fetch: first, storage })(embedParams);
    expect(new URL(String(first.mock.calls[0]![0])).searchParams.has('kept')).toBe(false);
    const second = mockFetch(json(200, answer({ viewer: minted })));
    await createApiLookup({ apiUrl: API, fetch: second, storage })(embedParams);
    expect(new URL(String(second.mock.calls[0]![0])).searchParams.get('kept')).toBe(minted);
    // The portal's modal (standard mode) neither sends nor keeps one.
    const modal = mockFetch(json(200, answer({ viewer: minted })));
    await createApiLookup({ apiUrl: API, fetch: modal, storage })(standardParams);
    expect(new URL(String(modal.mock.calls[0]![0])).searchParams.has('kept')).toBe(false);
  });

  it('turns a network failure into the generic error, without retrying (one call = one view)', async () => {
    const fetch = mockFetch(new TypeError('Failed to fetch'));
    const err = await failure(createApiLookup({ apiUrl: API, fetch })(embedParams));
    expect(err).toMatchObject({ kind: 'network', status: 0 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('rejects an answer it cannot use', async () => {
    for (const body of [null, answer({ glbUrl: 'javascript:alert(1)' }), answer({ settings: 'info' })]) {
      const err = await failure(
        createApiLookup({ apiUrl: API, fetch: mockFetch(json(200, body)) })(embedParams),
      );
      expect(err.kind).toBe('http');
    }
    const notJson = await failure(
      createApiLookup({ apiUrl: API, fetch: mockFetch(new Response('<html>', { status: 200 })) })(
        embedParams,
      ),
    );
    expect(notJson.kind).toBe('http');
  });

  it('does not call the API without model and subscription (Model not found)', async () => {
    const fetch = mockFetch(json(200, answer()));
    const apiUrl = vi.fn(async () => API);
    const lookup = createApiLookup({ apiUrl, fetch });
    for (const q of ['?model=animal-cell', '?subscription=tok', '']) {
      const err = await failure(resolveModelSource(parseViewerParams(q), { base, lookup }));
      expect(err.kind).toBe('not-found');
    }
    expect(fetch).not.toHaveBeenCalled();
    expect(apiUrl).not.toHaveBeenCalled();
  });

  it('is not used when the frame gives src and src is allowed (development)', async () => {
    const fetch = mockFetch(json(200, answer()));
    const source = await resolveModelSource(
      parseViewerParams('?src=https://cdn.test/a.glb&model=animal-cell&subscription=tok'),
      { base, lookup: createApiLookup({ apiUrl: API, fetch }), allowSrc: true },
    );
    expect(source.glbUrl).toBe('https://cdn.test/a.glb');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is used, and src ignored, when src is not allowed (production)', async () => {
    const fetch = mockFetch(json(200, answer()));
    const source = await resolveModelSource(
      parseViewerParams('?src=https://cdn.test/a.glb&model=animal-cell&subscription=tok'),
      { base, lookup: createApiLookup({ apiUrl: API, fetch }) },
    );
    expect(source.glbUrl).not.toBe('https://cdn.test/a.glb');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('resolves a lazy API origin and makes relative answer URLs absolute against it', async () => {
    const fetch = mockFetch(
      json(200, answer({ glbUrl: '/api/files/models/7?sig=x', branding: { modelLoadingLogo: '/l.webp' } })),
    );
    const source = await createApiLookup({ apiUrl: async () => 'http://localhost:3000', fetch })(embedParams);
    expect(fetch.mock.calls[0]![0]).toMatch(/^http:\/\/localhost:3000\/api\/viewer\/model\?/);
    expect(source?.glbUrl).toBe('http://localhost:3000/api/files/models/7?sig=x');
    expect(source?.branding.loadingImage).toBe('http://localhost:3000/l.webp');
    expect(source?.branding.backgroundColor).toBeNull();
  });
});

describe('userTextFor', () => {
  it('drops messages that only repeat the title and shortens long ones', () => {
    expect(userTextFor('limit', 'View limit reached')).toBeNull();
    expect(userTextFor('not-found', 'Not found')).toBeNull();
    expect(userTextFor('forbidden', '  ')).toBeNull();
    expect(userTextFor('forbidden', 'Plan not active.')).toBe('Plan not active.');
    expect(userTextFor('http', 'x'.repeat(400))).toHaveLength(298);
  });
});
