/**
 * A one-page PDF of text lines (Helvetica, US Letter), enough for an invoice's `invoice_pdf`: a dev
 * server needs a real PDF a browser or a test can open, not a layout engine, so no dependency.
 */
export function textPdf(lines: { text: string; size?: number; gap?: number }[]): Buffer {
  // WinAnsi covers ASCII; anything else is shown as its closest ASCII (× -> x) or '?'.
  const ascii = (s: string) =>
    s
      .replace(/×/g, 'x')
      .replace(/[–—]/g, '-')
      .replace(/[^\x20-\x7e]/g, '?')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  let y = 740;
  const ops: string[] = [];
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= line.gap ?? size + 6;
    ops.push(`BT /F1 ${size} Tf 56 ${y} Td (${ascii(line.text)}) Tj ET`);
  }
  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
