import { describe, expect, it } from 'vitest';
import { glbProblems } from './glb.ts';

function glb(json: string, extra: Buffer[] = []): Buffer {
  let text = Buffer.from(json);
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const chunkHead = (length: number, type: number) => {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(length, 0);
    b.writeUInt32LE(type, 4);
    return b;
  };
  const body = Buffer.concat([chunkHead(text.length, 0x4e4f534a), text, ...extra]);
  const head = Buffer.alloc(12);
  head.writeUInt32LE(0x46546c67, 0);
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([head, body]);
}

describe('glbProblems', () => {
  it('accepts a glTF 2.0 binary with a JSON chunk and a BIN chunk', () => {
    const bin = Buffer.concat([Buffer.from([8, 0, 0, 0, 0x42, 0x49, 0x4e, 0]), Buffer.alloc(8)]);
    expect(glbProblems(glb('{"asset":{"version":"2.0"}}', [bin]))).toEqual([]);
    expect(glbProblems(glb('{"asset":{"version":"2.0"}}'))).toEqual([]);
  });

  it('refuses everything else', () => {
    const good = glb('{"asset":{"version":"2.0"}}');
    const cases: Buffer[] = [
      Buffer.alloc(0),
      Buffer.from('glTF'),
      Buffer.from('PK\u0003\u0004 a zip file pretending to be a model'),
      (() => {
        const b = Buffer.from(good);
        b.writeUInt32LE(1, 4);
        return b;
      })(),
      (() => {
        const b = Buffer.from(good);
        b.writeUInt32LE(b.length - 1, 8);
        return b;
      })(),
      (() => {
        const b = Buffer.from(good);
        b.writeUInt32LE(4000, 12);
        return b;
      })(),
      (() => {
        const b = Buffer.from(good);
        b.writeUInt32LE(0x004e4942, 16);
        return b;
      })(),
      glb('{"asset":{"version":"1.0"}}'),
      glb('[1,2,3]'),
      glb('null'),
      glb('{"asset":'),
      Buffer.concat([good, Buffer.alloc(3)]),
    ];
    for (const [i, bytes] of cases.entries()) expect(glbProblems(bytes).length, String(i)).toBeGreaterThan(0);
  });
});
