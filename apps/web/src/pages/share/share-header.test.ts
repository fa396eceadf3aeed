import { describe, expect, it } from 'vitest';
import type { EmbedDetail } from '@helix/shared/schemas/model';
import { contrastOnWhite, HELIX_MARK, logoBox, shareHeaderView } from './share-header';

const ORIGIN = 'https://portal.example';

const detail = (over: { branding?: Partial<EmbedDetail['branding']>; user?: string; model?: string }) =>
  ({
    success: true,
    message: '',
    error: null,
    user: { name: over.user ?? 'Ada Teacher' },
    branding: {
      tenant: 'btour94305',
      name: 'Hillside School',
      customBrandName: 'btour94305',
      customDomainName: null,
      primaryColor: '#0a7d3b',
      textColor: '#000000',
      backgroundColor: '#ffffff',
      brandLogo: 'https://cdn.example/logo.webp',
      modelBgLogo: null,
      modelLoadingLogo: null,
      ...over.branding,
    },
    modelId: 1,
    modelName: over.model ?? 'Animal cell',
    settings: [],
    url: 'https://viewer.example/?model=x',
    viewer: 'vw1.a.b',
    transparentBackground: false,
    transparentFallback: false,
  }) satisfies EmbedDetail;

describe('the share page header', () => {
  it("shows the school's name (not its brand slug), logo and colour, the model and who shared it", () => {
    expect(shareHeaderView(detail({}), ORIGIN)).toEqual({
      brandName: 'Hillside School',
      logo: 'https://cdn.example/logo.webp',
      colour: '#0a7d3b',
      nameColour: '#0a7d3b',
      title: 'Animal cell',
      sharedBy: 'Shared by Ada Teacher',
    });
  });

  it("falls back to Helix's mark for a missing or unsafe logo, and to neutral texts", () => {
    const view = shareHeaderView(
      detail({ branding: { brandLogo: 'javascript:alert(1)', name: ' ' }, user: '', model: '' }),
      ORIGIN,
    );
    expect(view.logo).toBe(HELIX_MARK);
    expect(view.brandName).toBe('Helix');
    expect(view.title).toBe('Shared model');
    expect(view.sharedBy).toBeNull();
    expect(shareHeaderView(detail({ branding: { brandLogo: null } }), ORIGIN).logo).toBe(HELIX_MARK);
  });
});

describe("the logo's box", () => {
  it("keeps the logo's proportions at the header's height, at most 160 px wide", () => {
    expect(logoBox({ width: 200, height: 100 })).toEqual({ width: 72, height: 36 });
    expect(logoBox({ width: 1000, height: 100 })).toEqual({ width: 160, height: 36 });
    expect(logoBox({ width: 180, height: 180 })).toEqual({ width: 36, height: 36 });
  });

  it('is a square while the proportions are unknown', () => {
    expect(logoBox(null)).toEqual({ width: 36, height: 36 });
    expect(logoBox({ width: 0, height: 0 })).toEqual({ width: 36, height: 36 });
  });
});

describe("the school's colour on its name", () => {
  it('is used when readable on white, else the page keeps its text colour', () => {
    expect(shareHeaderView(detail({ branding: { primaryColor: '#5f51fb' } }), ORIGIN).nameColour).toBe(
      '#5f51fb',
    );
    const light = shareHeaderView(detail({ branding: { primaryColor: '#ffcc00' } }), ORIGIN);
    expect(light.nameColour).toBeNull();
    // The underline keeps the school's colour either way.
    expect(light.colour).toBe('#ffcc00');
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastOnWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastOnWhite('#fff')).toBeCloseTo(1, 5);
    expect(contrastOnWhite('#767676')).toBeCloseTo(4.54, 2);
    expect(contrastOnWhite('not a colour')).toBe(1);
  });
});
