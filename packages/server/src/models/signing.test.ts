import { describe, expect, it } from 'vitest';
import { signModelFile, signViewerTicket, verifyModelFile, verifyViewerTicket } from './signing.ts';

const SECRET = 'x'.repeat(40);

describe('viewer tickets', () => {
  it('round-trips and refuses tampering, other keys and expiry', () => {
    const ticket = signViewerTicket(SECRET, { tenantId: 1, userId: 2, modelId: 3 });
    expect(verifyViewerTicket(SECRET, ticket)).toMatchObject({ tenantId: 1, userId: 2, modelId: 3 });
    expect(verifyViewerTicket('y'.repeat(40), ticket)).toBeNull();
    const [v, payload, sig] = ticket.split('.');
    const other = Buffer.from(JSON.stringify({ tenantId: 9, userId: 2, modelId: 3, exp: 9e9 })).toString(
      'base64url',
    );
    expect(verifyViewerTicket(SECRET, `${v}.${other}.${sig}`)).toBeNull();
    // The first character carries six whole bits of the signature (the last one may carry padding bits).
    const tampered = `${sig![0] === 'A' ? 'B' : 'A'}${sig!.slice(1)}`;
    expect(verifyViewerTicket(SECRET, `${v}.${payload}.${tampered}`)).toBeNull();
    expect(
      verifyViewerTicket(SECRET, signViewerTicket(SECRET, { tenantId: 1, userId: 2, modelId: 3 }, -5)),
    ).toBeNull();
    for (const junk of ['', 'v1..', 'v1.e30.' + 'A'.repeat(43), 'a'.repeat(900)])
      expect(verifyViewerTicket(SECRET, junk)).toBeNull();
  });
});

describe('signed model file URLs', () => {
  it('binds the model id and expiry', () => {
    const { exp, sig } = signModelFile(SECRET, 5);
    expect(verifyModelFile(SECRET, 5, exp, sig)).toBe(true);
    expect(verifyModelFile(SECRET, 6, exp, sig)).toBe(false);
    expect(verifyModelFile(SECRET, 5, exp + 60, sig)).toBe(false);
    const old = signModelFile(SECRET, 5, -600);
    expect(verifyModelFile(SECRET, 5, old.exp, old.sig)).toBe(false);
  });
});
