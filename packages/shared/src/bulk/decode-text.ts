import chardet from 'chardet';

/**
 * Text of an uploaded file, whatever a school's spreadsheet saved it as. In order: a byte-order mark
 * (UTF-8, UTF-16 LE/BE) decides; UTF-16 without one is told by its zero bytes; bytes that are valid
 * UTF-8 are UTF-8 (a Latin-1 file with any accented letter almost never is); otherwise the detector
 * (chardet) names the legacy encoding, Windows-1252 when it is not confident of another one, since
 * that is what Excel on a Western European or American Windows writes for "CSV (Comma delimited)".
 * Decoding is the platform's TextDecoder (browser and Node), which knows every WHATWG encoding, except
 * Windows-1252 itself: Node's TextDecoder reads it as Latin-1 (0x92 as a control character instead of
 * the ’ of "O’Brien"), so that one is decoded here from its table.
 */
export interface DecodedText {
  text: string;
  /** The WHATWG name of the encoding used, e.g. 'utf-8', 'utf-16le', 'windows-1252'. */
  encoding: string;
  /** UTF-8 or UTF-16: the file said what it is; false when the encoding was guessed. */
  unicode: boolean;
}

const UNICODE = new Set(['utf-8', 'utf-16le', 'utf-16be']);
const WESTERN = new Set(['ISO-8859-1', 'ISO-8859-15', 'windows-1252']);
/** How sure the detector must be before a file is read as something other than Windows-1252. */
const MIN_CONFIDENCE = 50;

const LABELS: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252 (Western European)',
  'windows-1250': 'Windows-1250 (Central European)',
  'iso-8859-2': 'ISO-8859-2 (Central European)',
  'windows-1251': 'Windows-1251 (Cyrillic)',
  shift_jis: 'Shift_JIS (Japanese)',
  gbk: 'GBK (Chinese)',
  gb18030: 'GB18030 (Chinese)',
  big5: 'Big5 (Chinese)',
  'euc-kr': 'EUC-KR (Korean)',
};

/** The encoding's name as a person reads it. */
export const encodingLabel = (encoding: string) => LABELS[encoding] ?? encoding.toUpperCase();

/** Windows-1252 bytes 0x80 to 0x9f; every other byte is the Latin-1 character of the same number. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk = 8192;
  for (let start = 0; start < bytes.length; start += chunk) {
    const codes = Array.from(bytes.subarray(start, start + chunk), (b) =>
      b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** The WHATWG name of an encoding the platform can decode, or null. */
function decoderName(name: string): string | null {
  try {
    return new TextDecoder(name).encoding;
  } catch {
    return null;
  }
}

/** UTF-16 without a byte-order mark: text in Latin letters has a zero in every other byte. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, 4096) & ~1;
  if (length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

function legacyEncoding(bytes: Uint8Array): string {
  const matches = chardet.analyse(bytes);
  const western = matches.find((m) => WESTERN.has(m.name))?.confidence ?? 0;
  const best = matches.find((m) => !WESTERN.has(m.name) && m.name !== 'UTF-8' && m.name !== 'ASCII');
  if (best && best.confidence >= MIN_CONFIDENCE && best.confidence > western) {
    const name = decoderName(best.name);
    if (name && !UNICODE.has(name)) return name;
  }
  return 'windows-1252';
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const decode = (encoding: string, from = 0): DecodedText => ({
    text:
      encoding === 'windows-1252'
        ? decodeWindows1252(bytes)
        : new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(from)),
    encoding,
    unicode: UNICODE.has(encoding),
  });
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode('utf-8', 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', 2);
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return decode(utf16);
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'utf-8',
      unicode: true,
    };
  } catch {
    return decode(legacyEncoding(bytes));
  }
}
