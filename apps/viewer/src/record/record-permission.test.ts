import { describe, expect, it } from 'vitest';
import { MSG, RECORDING_MAX_SECONDS } from '@helix/shared';
import { askToRecord, viewerRecordUrl } from './record-permission.ts';

const answer =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('askToRecord', () => {
  it('asks the API with the model and the ticket', () => {
    expect(viewerRecordUrl('https://api.test/', 'animal-cell', 'v1.a.b')).toBe(
      'https://api.test/api/viewer/record?model=animal-cell&subscription=v1.a.b',
    );
  });

  it('allows on a 200 grant, never beyond the maximum', async () => {
    expect(
      await askToRecord('https://api.test', 'm', 't', answer(200, { record: true, maxSeconds: 120 })),
    ).toEqual({
      ok: true,
      maxSeconds: 120,
    });
    expect(
      await askToRecord('https://api.test', 'm', 't', answer(200, { record: true, maxSeconds: 9e9 })),
    ).toEqual({
      ok: true,
      maxSeconds: RECORDING_MAX_SECONDS,
    });
  });

  it("shows the server's refusal, and a generic failure otherwise", async () => {
    const refused = answer(403, { statusCode: 403, error: 'Forbidden', message: MSG.recordNotAllowed });
    expect(await askToRecord('https://api.test', 'm', 't', refused)).toEqual({
      ok: false,
      message: MSG.recordNotAllowed,
    });
    expect(await askToRecord('https://api.test', 'm', 't', answer(500, {}))).toEqual({
      ok: false,
      message: MSG.recordFailed,
    });
    expect(await askToRecord('https://api.test', 'm', 't', answer(200, { record: false }))).toEqual({
      ok: false,
      message: MSG.recordFailed,
    });
    const down: typeof fetch = async () => {
      throw new TypeError('network');
    };
    expect(await askToRecord('https://api.test', 'm', 't', down)).toEqual({
      ok: false,
      message: MSG.recordFailed,
    });
  });
});
