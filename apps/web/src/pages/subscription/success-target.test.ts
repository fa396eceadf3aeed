import { describe, expect, it } from 'vitest';
import { successTarget } from './success-target';

describe('where a payment return page goes on', () => {
  it('returns to the plan page after cancelling', () => {
    expect(successTarget('/success/unsubscribe')).toBe('/user/settings/subscription');
    expect(successTarget('/Success/Unsubscribe/')).toBe('/user/settings/subscription');
  });
  it('goes home (the model grid) after any purchase', () => {
    for (const path of [
      '/success',
      '/success/subscribe',
      '/success/subscribe/8',
      '/success/views',
      '/success/x/7',
    ])
      expect(successTarget(path)).toBe('/');
  });
});
