import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { ERRORS } from '../../../common/api/errors';
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, IMPORT_REQUIRED_COLUMNS, type ImportColumn, type ImportFormat } from '../../../common/api/org-types';
import { neutraliseCell } from '../../../common/org/sheet-cells';
import { AppError } from '../../http/app-error';
import { loadExcelJS } from '../exceljs-on-demand';
import { assertZipWithinLimits, looksLikeZip, ZipRefused } from './zip-limits';

/** One data row of a sheet: its number and the text of each known column. */
export interface SheetRow {
  row: number;
  cells: Record<ImportColumn, string>;
}

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/** A cell's value as the text a person typed (numbers as digits, rich text joined, formulas by result). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(Math.round(value)).toString() : String(value);
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('formula' in value || 'sharedFormula' in value) return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in value) return String((value as { text: unknown }).text ?? '');
    if ('error' in value) return '';
  }
  return String(value);
}

/** CSV text: UTF-8 (with or without BOM), else GB18030 (what Excel in Chinese saves as "CSV"). */
function decodeCsv(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    return new TextDecoder('gb18030').decode(buf);
  }
}

const headerName = (text: string): string => text.replace(/[\s*＊]/g, '').replace(/（.*?）|\(.*?\)/g, '');

/**
 * Reads the first worksheet of an .xlsx, or a .csv, into rows of the template's columns (rules:
 * IMPORT_COLUMNS). Refuses with a coded error what cannot be read; never half-reads.
 */
export async function readSheet(buf: Buffer): Promise<SheetRow[]> {
  const workbook = new (await loadExcelJS()).Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  if (buf.subarray(0, 4).equals(OLE_SIGNATURE)) throw new AppError(ERRORS.IMPORT_FILE_INVALID, '不支持旧版 .xls 文件，请在 Excel 中另存为 .xlsx 后再导入');
  if (looksLikeZip(buf)) {
    try {
      assertZipWithinLimits(buf);
      await workbook.xlsx.load(buf as unknown as ArrayBuffer);
    } catch (err) {
      const why = err instanceof ZipRefused ? err.message : '文件已损坏或不是 .xlsx 格式';
      throw new AppError(ERRORS.IMPORT_FILE_INVALID, `${ERRORS.IMPORT_FILE_INVALID.message}（${why}）`);
    }
    sheet = workbook.worksheets[0];
  } else {
    if (buf.includes(0)) throw new AppError(ERRORS.IMPORT_FILE_INVALID);
    try {
      sheet = await workbook.csv.read(Readable.from([decodeCsv(buf)]), { map: (v: unknown) => v } as never);
    } catch {
      throw new AppError(ERRORS.IMPORT_FILE_INVALID, `${ERRORS.IMPORT_FILE_INVALID.message}（CSV 格式错误）`);
    }
  }
  if (!sheet || sheet.rowCount === 0) throw new AppError(ERRORS.IMPORT_EMPTY);
  if (sheet.rowCount > IMPORT_MAX_ROWS + 1) throw new AppError(ERRORS.IMPORT_TOO_MANY_ROWS);

  const header = sheet.getRow(1);
  const columnOf = new Map<ImportColumn, number>();
  header.eachCell((cell, col) => {
    const name = headerName(cellText(cell.value)) as ImportColumn;
    if (IMPORT_COLUMNS.includes(name) && !columnOf.has(name)) columnOf.set(name, col);
  });
  const missing = IMPORT_REQUIRED_COLUMNS.filter((c) => !columnOf.has(c));
  if (missing.length) throw new AppError(ERRORS.IMPORT_HEADERS_INVALID, `${ERRORS.IMPORT_HEADERS_INVALID.message}：缺少“${missing.join('”、“')}”列`);

  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, n) => {
    if (n === 1) return;
    const cells = {} as Record<ImportColumn, string>;
    let any = false;
    for (const column of IMPORT_COLUMNS) {
      const col = columnOf.get(column);
      const text = col ? cellText(row.getCell(col).value).trim() : '';
      cells[column] = text;
      if (text) any = true;
    }
    if (any) rows.push({ row: n, cells });
  });
  if (rows.length === 0) throw new AppError(ERRORS.IMPORT_EMPTY);
  if (rows.length > IMPORT_MAX_ROWS) throw new AppError(ERRORS.IMPORT_TOO_MANY_ROWS);
  return rows;
}

export interface SheetOut {
  name: string;
  header: string[];
  rows: string[][];
  /** Column widths in characters. */
  widths?: number[];
  /** Per column: a list of choices for a dropdown (xlsx only). */
  choices?: Record<number, string[]>;
  /** Columns stored as text (phones, accounts with leading zeros). */
  textColumns?: number[];
}

/**
 * Writes sheets as .xlsx (every sheet) or .csv (the first, UTF-8 with BOM so Excel reads Chinese).
 * Every cell goes through neutraliseCell: nothing we hand out runs as a formula when opened.
 */
export async function writeSheets(format: ImportFormat, sheets: SheetOut[]): Promise<Buffer> {
  const safe = (row: string[]) => row.map((v) => neutraliseCell(v));
  if (format === 'csv') {
    const first = sheets[0]!;
    const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    const lines = [first.header, ...first.rows].map((r) => safe(r).map(quote).join(','));
    return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')]);
  }
  const workbook = new (await loadExcelJS()).Workbook();
  for (const s of sheets) {
    const ws = workbook.addWorksheet(s.name);
    ws.addRow(s.header).font = { bold: true };
    for (const row of s.rows) ws.addRow(safe(row));
    s.widths?.forEach((w, i) => (ws.getColumn(i + 1).width = w));
    for (const col of s.textColumns ?? []) ws.getColumn(col + 1).numFmt = '@';
    for (const [col, list] of Object.entries(s.choices ?? {})) {
      const letter = ws.getColumn(Number(col) + 1).letter;
      // A list validation's formula may not pass 255 characters (Excel); our lists are short.
      // exceljs keeps range validations in `dataValidations` (one <dataValidation sqref> for the whole
      // column, not one per cell); its typings only declare the per-cell form.
      (ws as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations.add(`${letter}2:${letter}${IMPORT_MAX_ROWS + 1}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`"${list.join(',')}"`],
        showErrorMessage: true,
        errorTitle: '输入不在可选范围内',
        error: `请选择：${list.join('、')}`,
      });
    }
    ws.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
