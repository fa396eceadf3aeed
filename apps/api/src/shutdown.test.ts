import { describe, expect, it } from 'vitest';
import { parseConfig } from '@helix/server';
import { shutdownTimeoutMs } from './shutdown.ts';

describe('shutdown timeout', () => {
  it('outlasts the image check, with a margin', () => {
    const config = parseConfig({ DATABASE_URL: 'postgresql://127.0.0.1/helix' });
    expect(config.IMAGE_CHECK_TIMEOUT_MS).toBe(20_000);
    expect(shutdownTimeoutMs(config)).toBe(30_000);
    expect(shutdownTimeoutMs({ IMAGE_CHECK_TIMEOUT_MS: 45_000 })).toBe(55_000);
    expect(shutdownTimeoutMs({ IMAGE_CHECK_TIMEOUT_MS: 1_000 })).toBe(30_000);
  });
});
