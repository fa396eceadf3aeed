import { describe, expect, it } from 'vitest';
import { ModelLoadError } from './load-model.ts';
import { answerFromMessage, offlineModeOf, receiveOfflineCopy } from './offline-copy.ts';
import { parseViewerParams } from './params.ts';

const PORTAL = 'https://portal.example';
const message = (extra: Record<string, unknown> = {}) => ({
  source: 'helix-portal',
  type: 'offline-model',
  name: 'Heart',
  settings: ['info', 'center_model', 'background_color', 'nonsense'],
  branding: {
    backgroundColor: '#102030',
    primaryColor: '#5f51fb',
    modelBgLogo: null,
    modelLoadingLogo: null,
  },
  glb: new Uint8Array([1, 2, 3, 4]).buffer,
  ...extra,
});

/** A frame's window: its parent is another object, messages are dispatched by hand. */
function fakeFrame() {
  const listeners = new Set<(e: MessageEvent) => void>();
  const posted: { data: unknown; origin: string }[] = [];
  const parent = { postMessage: (data: unknown, origin: string) => posted.push({ data, origin }) };
  const win = {
    parent,
    addEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.delete(fn),
  } as unknown as Window;
  const deliver = (data: unknown, origin = PORTAL, source: unknown = parent) =>
    [...listeners].forEach((fn) => fn({ data, origin, source } as MessageEvent));
  return { win, posted, deliver, listeners };
}

describe('offlineModeOf', () => {
  it('is only for the portal modal (standard mode) and only the two known values', () => {
    expect(offlineModeOf('?currentmode=standard&offline=copy')).toBe('copy');
    expect(offlineModeOf('?currentmode=standard&offline=prepare')).toBe('prepare');
    expect(offlineModeOf('?currentmode=embedding&offline=copy')).toBeNull();
    expect(offlineModeOf('?offline=copy')).toBeNull();
    expect(offlineModeOf('?currentmode=standard&offline=other')).toBeNull();
  });
});

describe('answerFromMessage', () => {
  it('turns the file and images into local URLs and ignores anything else', () => {
    const logo = new Blob(['png']);
    const answer = answerFromMessage(message({ branding: { modelBgLogo: logo } }), (b) => `blob:x/${b.size}`);
    expect(answer).toMatchObject({
      name: 'Heart',
      glbUrl: 'blob:x/4',
      branding: { modelBgLogo: 'blob:x/3' },
    });
    expect(answerFromMessage({ ...message(), source: 'someone' })).toBeNull();
    expect(answerFromMessage({ ...message(), glb: 'not a buffer' })).toBeNull();
    expect(answerFromMessage({ ...message(), glb: new ArrayBuffer(0) })).toBeNull();
    expect(answerFromMessage(null)).toBeNull();
  });
});

describe('receiveOfflineCopy', () => {
  const params = parseViewerParams('?model=heart&currentmode=standard&version=3&offline=copy');

  it('asks the parent, accepts only the portal origin and the parent window, and maps like an API answer', async () => {
    const frame = fakeFrame();
    const pending = receiveOfflineCopy({ portalOrigin: PORTAL, params, win: frame.win });
    expect(frame.posted).toEqual([
      { data: { source: 'helix-viewer', type: 'offline-request', model: 'heart' }, origin: PORTAL },
    ]);
    frame.deliver(message({ name: 'Forged' }), 'https://evil.example');
    frame.deliver(message({ name: 'Sibling' }), PORTAL, {});
    frame.deliver(message());
    const source = await pending;
    expect(source.title).toBe('Heart');
    expect(source.mode).toBe('standard');
    expect(source.version).toBe('3');
    expect(source.glbUrl).toMatch(/^blob:/);
    // The standard mode's fixed set: no center_model, unknown names dropped.
    expect(source.settings).toEqual(['info', 'background_color']);
    expect(source.branding.backgroundColor).toBe('#102030');
    expect(frame.listeners.size).toBe(0);
  });

  it('gives up when the portal does not answer, and outside a frame', async () => {
    const frame = fakeFrame();
    await expect(
      receiveOfflineCopy({ portalOrigin: PORTAL, params, win: frame.win, timeoutMs: 10 }),
    ).rejects.toThrow(ModelLoadError);
    const top = { addEventListener() {}, removeEventListener() {} } as unknown as Window;
    (top as unknown as { parent: Window }).parent = top;
    await expect(receiveOfflineCopy({ portalOrigin: PORTAL, params, win: top })).rejects.toMatchObject({
      kind: 'not-found',
    });
  });
});
