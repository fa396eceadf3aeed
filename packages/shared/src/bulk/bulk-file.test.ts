import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import writeXlsxFile, { type SheetData } from 'write-excel-file/node';
import { MSG } from '../messages.ts';
import { checkInviteRows } from '../schemas/invite.ts';
import { BULK_FILE_MAX_BYTES, parseXlsx, problemRowsTable, readBulkFile, SAMPLE_CSV } from './bulk-file.ts';
import { cellText, numberText } from './cell-text.ts';
import { decodeText } from './decode-text.ts';

/**
 * A corpus of bulk files as schools make them, each built here byte by byte, with the people it must
 * yield. See docs/bulk-invite.md for the list of what is accepted.
 */

const encode = (text: string, encoding: string) => new Uint8Array(iconv.encode(text, encoding));
/** Windows-1252 as Excel on Windows writes "CSV (Comma delimited)". */
const windows1252 = (text: string) => encode(text, 'windows-1252');
const utf8 = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => new Uint8Array(Buffer.from(text, 'utf16le'));
const utf16be = (text: string) => {
  const bytes = utf16le(text);
  for (let i = 0; i + 1 < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
  return bytes;
};
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const BOM8 = Uint8Array.from([0xef, 0xbb, 0xbf]);

const people = (read: Awaited<ReturnType<typeof readBulkFile>>) => {
  if (!read.ok) throw new Error(`not read: ${read.message}`);
  return read.rows.map(({ line, name, email, note }) => ({ line, name, email, note }));
};

const SCHOOL =
  'Name,Email,Note\r\nJosé García,jose.garcia@example.com,Biología\r\nZoë O’Brien,zoe@example.com,Year 9 – Science\r\n';
const SCHOOL_PEOPLE = [
  { line: 2, name: 'José García', email: 'jose.garcia@example.com', note: 'Biología' },
  { line: 3, name: 'Zoë O’Brien', email: 'zoe@example.com', note: 'Year 9 – Science' },
];

describe('bulk files: encodings', () => {
  it.each([
    ['UTF-8 without BOM', utf8(SCHOOL), 'utf-8'],
    ['UTF-8 with BOM (Excel "CSV UTF-8")', concat(BOM8, utf8(SCHOOL)), 'utf-8'],
    ['UTF-16 LE with BOM', concat(Uint8Array.from([0xff, 0xfe]), utf16le(SCHOOL)), 'utf-16le'],
    ['UTF-16 BE with BOM', concat(Uint8Array.from([0xfe, 0xff]), utf16be(SCHOOL)), 'utf-16be'],
    ['UTF-16 LE without BOM', utf16le(SCHOOL), 'utf-16le'],
    ['Windows-1252 (Excel on Windows)', windows1252(SCHOOL), 'windows-1252'],
  ])('%s', async (_, bytes, encoding) => {
    const read = await readBulkFile({ name: 'staff.csv', bytes });
    expect(people(read)).toEqual(SCHOOL_PEOPLE);
    expect(read.ok && read.encoding).toBe(encoding);
  });

  it('says when the encoding was guessed, and not when the file said it', async () => {
    const guessed = await readBulkFile({ name: 'staff.csv', bytes: windows1252(SCHOOL) });
    expect(guessed.ok && guessed.warnings).toEqual([MSG.bulkReadAs('Windows-1252 (Western European)')]);
    const known = await readBulkFile({ name: 'staff.csv', bytes: concat(BOM8, utf8(SCHOOL)) });
    expect(known.ok && known.warnings).toEqual([]);
  });

  it('a Latin-1 file with a single accented letter is not taken for UTF-8', () => {
    expect(decodeText(windows1252('Name,Email\nRené,rene@example.com\n'))).toEqual({
      text: 'Name,Email\nRené,rene@example.com\n',
      encoding: 'windows-1252',
      unicode: false,
    });
  });

  it('another legacy encoding when the detector is sure of it (Shift_JIS)', async () => {
    const names = ['山田 太郎', '佐藤 花子', '鈴木 一郎', '高橋 美咲', '田中 健太', '伊藤 さくら'];
    const text =
      'Name,Email,Note\n' + names.map((n, i) => `${n},p${i}@example.com,理科の先生です\n`).join('');
    const read = await readBulkFile({ name: 'staff.csv', bytes: encode(text, 'shift_jis') });
    expect(people(read).map((p) => p.name)).toEqual(names);
    expect(read.ok && read.encoding).toBe('shift_jis');
  });

  it('reports characters that could not be read', async () => {
    const broken = concat(BOM8, utf8('Name,Email\nJos'), Uint8Array.from([0xe9]), utf8(',j@example.com\n'));
    const read = await readBulkFile({ name: 'staff.csv', bytes: broken });
    expect(read.ok && read.warnings).toEqual([MSG.bulkUnreadableCharacters]);
  });
});

describe('bulk files: layouts', () => {
  it('semicolons with a leading sep=; line (Excel in much of Europe)', async () => {
    const text = 'sep=;\r\nName;Email;Note\r\n"García, José";jose@example.com;a, b\r\n';
    expect(people(await readBulkFile({ name: 'staff.csv', bytes: windows1252(text) }))).toEqual([
      { line: 2, name: 'García, José', email: 'jose@example.com', note: 'a, b' },
    ]);
  });

  it('semicolons without a sep line are detected', async () => {
    const text = 'Name;Email\nAnn Lee;ann@example.com\nBo Chen;bo@example.com\n';
    expect(people(await readBulkFile({ name: 'staff.csv', bytes: utf8(text) }))).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: '' },
      { line: 3, name: 'Bo Chen', email: 'bo@example.com', note: '' },
    ]);
  });

  it('a Google Forms export: Timestamp and other answers ignored, "Email Address" is the e-mail', async () => {
    const text =
      'Timestamp,Email Address,Full name,Which class do you teach?\n' +
      '2026/01/11 9:15:02 AM GMT,ann@example.com,Ann Lee,7B\n' +
      '2026/01/11 9:17:45 AM GMT,BO@Example.com,Bo Chen,8A\n';
    const read = await readBulkFile({
      name: 'Staff sign-up (Responses) - Form responses 1.csv',
      bytes: utf8(text),
    });
    expect(people(read)).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: '' },
      { line: 3, name: 'Bo Chen', email: 'BO@Example.com', note: '' },
    ]);
    expect(read.ok && read.ignored).toEqual(['Timestamp', 'Which class do you teach?']);
    expect(read.ok && read.warnings).toEqual([
      MSG.bulkIgnoredColumns('Timestamp, Which class do you teach?'),
    ]);
  });

  it('First Name and Last Name are joined; a missing half is not an error', async () => {
    const text = 'First Name,Last Name,E-mail,Notes\nAnn,Lee,ann@example.com,x\nPrince,,p@example.com,\n';
    const read = await readBulkFile({ name: 'staff.csv', bytes: utf8(text) });
    expect(people(read)).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: 'x' },
      { line: 3, name: 'Prince', email: 'p@example.com', note: '' },
    ]);
    expect(read.ok && read.columns).toEqual({
      firstName: 'First Name',
      lastName: 'Last Name',
      email: 'E-mail',
      note: 'Notes',
    });
  });

  it('headers in any order, case and punctuation: "EMAIL_ADDRESS", "full-name:", "Surname"', async () => {
    const text =
      'Surname,EMAIL_ADDRESS,full-name:,Given name\nLee,ann@example.com,Ann Lee,Ann\nChen,bo@example.com,,Bo\n';
    expect(people(await readBulkFile({ name: 'staff.csv', bytes: utf8(text) }))).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: '' },
      { line: 3, name: 'Bo Chen', email: 'bo@example.com', note: '' },
    ]);
  });

  it('CRLF, blank lines and rows of empty cells are skipped; row numbers are the spreadsheet’s', async () => {
    const text =
      '\r\nName,Email\r\n\r\nAnn Lee,ann@example.com\r\n,,\r\n  \r\nBo Chen,bo@example.com\r\n\r\n';
    expect(people(await readBulkFile({ name: 'staff.csv', bytes: utf8(text) }))).toEqual([
      { line: 4, name: 'Ann Lee', email: 'ann@example.com', note: '' },
      { line: 7, name: 'Bo Chen', email: 'bo@example.com', note: '' },
    ]);
  });

  it('formula-looking cells are data, never evaluated', async () => {
    const text =
      'Name,Email,Note\n=1+2,a@example.com,"=HYPERLINK(""http://evil.test"",""x"")"\n@SUM(A1),b@example.com,+44 7700 900123\n';
    expect(people(await readBulkFile({ name: 'staff.csv', bytes: utf8(text) }))).toEqual([
      { line: 2, name: '=1+2', email: 'a@example.com', note: '=HYPERLINK("http://evil.test","x")' },
      { line: 3, name: '@SUM(A1)', email: 'b@example.com', note: '+44 7700 900123' },
    ]);
  });

  it('a file without a header: name, email, note in that order', async () => {
    expect(
      people(await readBulkFile({ name: 'staff.csv', bytes: utf8('Ann Lee,ann@example.com,hi\n') })),
    ).toEqual([{ line: 1, name: 'Ann Lee', email: 'ann@example.com', note: 'hi' }]);
  });

  it('a header without an e-mail column is a clear error, not a row of problems', async () => {
    expect(
      await readBulkFile({ name: 'staff.csv', bytes: utf8('Student,Contact\nAnn,ann@example.com\n') }),
    ).toEqual({
      ok: false,
      message: MSG.bulkNoEmailColumn,
    });
  });

  it('refuses other types, too large files and files without rows', async () => {
    expect(await readBulkFile({ name: 'staff.xls', bytes: utf8('x') })).toEqual({
      ok: false,
      message: MSG.bulkFileType,
    });
    expect(await readBulkFile({ name: 'staff.csv', bytes: new Uint8Array(BULK_FILE_MAX_BYTES + 1) })).toEqual(
      {
        ok: false,
        message: MSG.bulkFileTooLarge(5),
      },
    );
    expect(await readBulkFile({ name: 'staff.csv', bytes: utf8('Name,Email\r\n\r\n') })).toEqual({
      ok: false,
      message: MSG.bulkNoRows,
    });
    expect(await readBulkFile({ name: 'staff.xlsx', bytes: utf8('Name,Email\n') })).toEqual({
      ok: false,
      message: MSG.bulkFileUnreadable,
    });
  });

  it('the sample file reads as its two people', async () => {
    expect(people(await readBulkFile({ name: 'sample.csv', bytes: concat(BOM8, utf8(SAMPLE_CSV)) }))).toEqual(
      [
        { line: 2, name: 'Jane Doe', email: 'jane.doe@example.com', note: 'Biology teacher' },
        { line: 3, name: 'José García', email: 'jose.garcia@example.com', note: '' },
      ],
    );
  });
});

describe('bulk files: .xlsx', () => {
  const xlsx = async (data: SheetData) => new Uint8Array(await writeXlsxFile(data).toBuffer());

  it('dates, numbers and booleans read as Excel shows them', async () => {
    const bytes = await xlsx([
      ['Name', 'Email', 'Joined', 'Room', 'Ratio', 'Phone', 'Staff'],
      [
        'José García',
        'jose@example.com',
        { value: new Date(Date.UTC(2026, 0, 11)), type: Date, format: 'yyyy-mm-dd' },
        12,
        { value: 0.1 + 0.2, type: Number },
        447700900123,
        true,
      ],
      [
        'Ann Lee',
        'ann@example.com',
        { value: new Date(Date.UTC(2026, 0, 11, 8, 30)), type: Date, format: 'dd/mm/yyyy hh:mm' },
        null,
        1.5,
        null,
        false,
      ],
    ]);
    expect((await parseXlsx(bytes)).map((r) => r.cells)).toEqual([
      ['Name', 'Email', 'Joined', 'Room', 'Ratio', 'Phone', 'Staff'],
      ['José García', 'jose@example.com', '2026-01-11', '12', '0.3', '447700900123', 'TRUE'],
      ['Ann Lee', 'ann@example.com', '2026-01-11 08:30', '', '1.5', '', 'FALSE'],
    ]);
  });

  it('a dated note and a numeric name are text; blank rows skipped; other columns ignored', async () => {
    const bytes = await xlsx([
      ['Email', 'First name', 'Last name', 'Note', 'Class'],
      [
        'ann@example.com',
        'Ann',
        'Lee',
        { value: new Date(Date.UTC(2026, 0, 11)), type: Date, format: 'd mmm yyyy' },
        '7B',
      ],
      [null, null, null, null, null],
      ['bo@example.com', 'Bo', 2026, 'x', '8A'],
    ]);
    const read = await readBulkFile({ name: 'staff.xlsx', bytes });
    expect(people(read)).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: '2026-01-11' },
      { line: 4, name: 'Bo 2026', email: 'bo@example.com', note: 'x' },
    ]);
    expect(read.ok && read.format).toBe('xlsx');
    expect(read.ok && read.ignored).toEqual(['Class']);
  });

  it('an .xlsx renamed .csv is still read as a workbook', async () => {
    const bytes = await xlsx([
      ['Name', 'Email'],
      ['Ann Lee', 'ann@example.com'],
    ]);
    expect(people(await readBulkFile({ name: 'staff.csv', bytes }))).toEqual([
      { line: 2, name: 'Ann Lee', email: 'ann@example.com', note: '' },
    ]);
  });
});

describe('bulk files: cells and problem rows', () => {
  it('numbers without float noise or exponents', () => {
    expect(numberText(0.1 + 0.2)).toBe('0.3');
    expect(numberText(1234567890123456)).toBe('1234567890123456');
    expect(numberText(-2.5)).toBe('-2.5');
    expect(cellText(null)).toBe('');
    expect(cellText('x'.repeat(2000))).toHaveLength(1000);
  });

  it('the problem rows: spreadsheet row, cells and reasons; duplicates are not problems', () => {
    const rows = [
      { line: 2, name: 'Ann', email: 'ann@example.com', note: '' },
      { line: 3, name: '', email: 'not-an-email', note: '=1+2' },
      { line: 5, name: 'Ann again', email: 'ANN@example.com', note: '' },
      { line: 6, name: 'Bo', email: 'bo@example.com', note: '' },
    ];
    const checked = checkInviteRows(rows, new Set(['bo@example.com']));
    expect(
      problemRowsTable(
        checked,
        rows.map((r) => r.line),
      ),
    ).toEqual([
      ['Row', 'Name', 'Email', 'Note', 'Problems'],
      [3, '', 'not-an-email', '=1+2', `${MSG.bulkRowMissingName}; ${MSG.bulkRowInvalidEmail}`],
      [6, 'Bo', 'bo@example.com', '', MSG.bulkRowExisting],
    ]);
  });
});
