/**
 * A PDF of `pages` A4 pages, each with the lines `lines(page)` (1-based) in Helvetica, one of the
 * standard 14 fonts, not embedded (pdf.js draws it with its standard font data, served by our build).
 * Latin-1 text only. Written by hand: a correct cross-reference table, nothing compressed.
 */
export function textPdf(pages: number, lines: (page: number) => string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add('PAGES');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const text = lines(p)
      .map((line, i) => `BT /F1 ${i === 0 ? 24 : 12} Tf 56 ${780 - i * (i === 0 ? 0 : 18) - (i > 0 ? 30 : 0)} Td (${escape(line)}) Tj ET`)
      .join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PDF with one line of text per page: `pages[i]` on page i + 1 (pdftotext reads it back, a form feed between pages). */
export function pagePerLinePdf(pages: readonly string[]): Buffer {
  return textPdf(pages.length, (page) => [pages[page - 1]!]);
}
