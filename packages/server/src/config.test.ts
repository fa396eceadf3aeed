import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_SIGNING_SECRET, parseConfig } from './config.ts';

const base = { DATABASE_URL: 'postgresql://127.0.0.1/helix' };

describe('configuration', () => {
  it('refuses the development SIGNING_SECRET in production, default or given', () => {
    expect(() => parseConfig({ ...base, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() =>
      parseConfig({ ...base, NODE_ENV: 'production', SIGNING_SECRET: DEV_SIGNING_SECRET }),
    ).toThrow(/SIGNING_SECRET/);
    const own = 's'.repeat(40);
    expect(parseConfig({ ...base, NODE_ENV: 'production', SIGNING_SECRET: own }).SIGNING_SECRET).toBe(own);
  });

  it('accepts it only in development and test', () => {
    for (const NODE_ENV of ['development', 'test'] as const)
      expect(parseConfig({ ...base, NODE_ENV }).SIGNING_SECRET).toBe(DEV_SIGNING_SECRET);
    expect(() => parseConfig({ ...base, NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
  });

  it('limits the public branding lookup by default', () => {
    const config = parseConfig(base);
    expect(config.BRANDING_RATE_LIMIT_MAX).toBeGreaterThan(0);
    expect(config.BRANDING_RATE_LIMIT_WINDOW_SECONDS).toBeGreaterThan(0);
  });

  it('allows test clocks (STRIPE_TEST_CLOCKS) only outside production and never with a live key', () => {
    expect(parseConfig(base).STRIPE_TEST_CLOCKS).toBe(false);
    expect(parseConfig({ ...base, STRIPE_TEST_CLOCKS: 'true' }).STRIPE_TEST_CLOCKS).toBe(true);
    const own = 's'.repeat(40);
    expect(() =>
      parseConfig({ ...base, NODE_ENV: 'production', SIGNING_SECRET: own, STRIPE_TEST_CLOCKS: 'true' }),
    ).toThrow(/STRIPE_TEST_CLOCKS/);
    expect(() => parseConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_TEST_CLOCKS: '1' })).toThrow(
      /STRIPE_TEST_CLOCKS/,
    );
  });
});
