import { describe, expect, it } from 'vitest';
import { hintedModelUrl, modelPreloadLink } from './model-hint.ts';

const API = 'https://api.test';
const file = (exp: number, v = 3, id = 7) =>
  `${API}/api/files/models/${id}?v=${v}&exp=${exp}&sig=${'s'.repeat(43)}`;

describe("the page's model hint", () => {
  it('is downloaded when it names the answer’s file and version, whatever its signature', () => {
    expect(hintedModelUrl(file(60), file(120))).toBe(file(60));
  });

  it('is ignored for another file, version or origin, or anything else', () => {
    expect(hintedModelUrl(file(60, 4), file(120))).toBe(file(120));
    expect(hintedModelUrl(file(60, 3, 8), file(120))).toBe(file(120));
    expect(hintedModelUrl(file(60).replace(API, 'https://evil.test'), file(120))).toBe(file(120));
    expect(hintedModelUrl('javascript:alert(1)', file(120))).toBe(file(120));
    expect(hintedModelUrl(null, file(120))).toBe(file(120));
  });

  it("is preloaded by the viewer's document only on the API's origin", () => {
    const q = (glb: string) => `?model=m&glb=${encodeURIComponent(glb)}`;
    expect(modelPreloadLink(q(file(60)), `${API}/`)).toBe(
      `<${file(60)}>; rel=preload; as=fetch; crossorigin=anonymous`,
    );
    expect(modelPreloadLink(q(file(60).replace(API, 'https://evil.test')), API)).toBeNull();
    expect(modelPreloadLink(q(`${API}/api/files/images/x.webp?sig=a`), API)).toBeNull();
    expect(modelPreloadLink('?model=m', API)).toBeNull();
  });
});
