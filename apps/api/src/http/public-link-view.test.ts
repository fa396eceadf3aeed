import { describe, expect, it } from 'vitest';
import { contrastOnWhite, HELIX_MARK, shareHeaderView, type ShareHeaderSource } from './public-link-view.ts';

const ORIGIN = 'https://portal.example';

const source = (over: {
  branding?: Partial<ShareHeaderSource['branding']>;
  user?: string;
  model?: string;
}): ShareHeaderSource => ({
  branding: {
    name: 'Hillside School',
    primaryColor: '#0a7d3b',
    brandLogo: 'https://cdn.example/logo.webp',
    ...over.branding,
  },
  modelName: over.model ?? 'Animal cell',
  creatorName: over.user ?? 'Ada Teacher',
});

describe('the share page header', () => {
  it("shows the school's name (not its brand slug), logo and colour, the model and who shared it", () => {
    expect(shareHeaderView(source({}), ORIGIN)).toEqual({
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
      source({ branding: { brandLogo: 'javascript:alert(1)', name: ' ' }, user: '', model: '' }),
      ORIGIN,
    );
    expect(view.logo).toBe(HELIX_MARK);
    expect(view.brandName).toBe('Helix');
    expect(view.title).toBe('Shared model');
    expect(view.sharedBy).toBeNull();
    expect(shareHeaderView(source({ branding: { brandLogo: null } }), ORIGIN).logo).toBe(HELIX_MARK);
  });
});

describe("the school's colour on its name", () => {
  it('is used when readable on white, else the page keeps its text colour', () => {
    expect(shareHeaderView(source({ branding: { primaryColor: '#5f51fb' } }), ORIGIN).nameColour).toBe(
      '#5f51fb',
    );
    const light = shareHeaderView(source({ branding: { primaryColor: '#ffcc00' } }), ORIGIN);
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
