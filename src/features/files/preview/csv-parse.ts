/**
 * CSV for the preview (a table, not raw text): RFC 4180 fields — quoted, with "" for a quote, line
 * breaks inside quotes — separated by the delimiter the first line uses most (comma, semicolon or
 * tab); bytes decoded as UTF-8 (a BOM dropped) or, when they are not UTF-8, as GB18030, which is what
 * Excel in Chinese saves.
 */

/** `partial`: the bytes are the file's beginning (a Range), so the last character may be cut short. */
export function decodeCsv(bytes: ArrayBuffer, partial = false): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial }).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gb18030').decode(bytes, { stream: partial });
  }
}

/** The delimiter the first line (outside quotes) uses most: comma, semicolon or tab. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

export interface ParsedCsv {
  rows: string[][];
  /** More rows followed than `maxRows`. */
  truncated: boolean;
}

export function parseCsv(text: string, maxRows: number, delimiter = detectDelimiter(text)): ParsedCsv {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = (): boolean => {
    row.push(field);
    field = '';
    rows.push(row);
    row = [];
    return rows.length >= maxRows;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (endRow()) return { rows, truncated: text.slice(i + 1).trim() !== '' };
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length > 0) endRow();
  return { rows, truncated: false };
}
