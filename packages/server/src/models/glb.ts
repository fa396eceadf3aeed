/**
 * A structural check of a glTF binary (.glb, glTF 2.0 section 4.4): the 12-byte header (magic 'glTF',
 * version 2, declared length equal to the byte length), chunks that fit the file, a first chunk of type
 * JSON that parses to an object with asset.version '2.0' (and no second JSON chunk).
 * Returns the problems found ([] for a valid file). It reads headers only: fast enough for the request.
 */
const MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'

export function glbProblems(bytes: Uint8Array): string[] {
  if (bytes.byteLength < 20) return ['too short for a glTF binary'];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return ["the magic is not 'glTF'"];
  const version = view.getUint32(4, true);
  if (version !== 2) return [`container version ${version}, expected 2`];
  const length = view.getUint32(8, true);
  if (length !== bytes.byteLength)
    return [`declared length ${length} differs from ${bytes.byteLength} bytes`];

  let offset = 12;
  let index = 0;
  while (offset < length) {
    if (offset + 8 > length) return ['a chunk header runs past the end'];
    const chunkLength = view.getUint32(offset, true);
    const chunkType = view.getUint32(offset + 4, true);
    const start = offset + 8;
    const end = start + chunkLength;
    if (end > length) return [`chunk ${index} runs past the end`];
    if (chunkLength % 4 !== 0) return [`chunk ${index} is not 4-byte aligned`];
    if (index === 0) {
      if (chunkType !== CHUNK_JSON) return ['the first chunk is not JSON'];
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, end)));
      } catch {
        return ['the JSON chunk does not parse'];
      }
      const asset = (json as { asset?: { version?: unknown } } | null)?.asset;
      if (typeof json !== 'object' || json === null || Array.isArray(json) || asset?.version !== '2.0') {
        return ["the JSON chunk has no asset.version '2.0'"];
      }
    } else if (chunkType === CHUNK_JSON) {
      return [`chunk ${index} is a second JSON chunk`];
    }
    offset = end;
    index += 1;
  }
  return [];
}
