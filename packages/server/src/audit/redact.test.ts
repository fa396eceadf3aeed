import { describe, expect, it } from 'vitest';
import { LIST_MAX, REDACTED, redact, TEXT_MAX } from './redact.ts';

describe('redact', () => {
  it('hides secrets by field name, at any depth', () => {
    expect(
      redact({
        name: 'Ada',
        password: 'p',
        newPassword: 'p',
        nested: { client_secret: 's', token: 't', payment_method_id: 'pm_1' },
      }),
    ).toEqual({
      name: 'Ada',
      password: REDACTED,
      newPassword: REDACTED,
      nested: { client_secret: REDACTED, token: REDACTED, payment_method_id: 'pm_1' },
    });
  });

  it('never keeps file bytes; cuts long texts and lists', () => {
    expect(redact({ logo: 'data:image/png;base64,AAAA' })).toEqual({ logo: '[file: 26 characters]' });
    expect(redact(Buffer.from('abc'))).toBe('[file: 3 bytes]');
    const long = redact('x'.repeat(TEXT_MAX + 10)) as string;
    expect(long.startsWith('x'.repeat(TEXT_MAX))).toBe(true);
    expect(long).toContain(`(${TEXT_MAX + 10} characters)`);
    const rows = redact(
      Array.from({ length: LIST_MAX + 5 }, (_, i) => ({ email: `${i}@x.test` })),
    ) as unknown[];
    expect(rows).toHaveLength(LIST_MAX + 1);
    expect(rows.at(-1)).toBe('… and 5 more');
  });
});
