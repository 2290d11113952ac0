import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded at its first use: loading it (with unzipper, fast-csv and their dependencies) was
 * ~15 % of a server start's CPU, and only the user import (.xlsx/.csv) and the action log's XLSX
 * export use it. Every later use gets the same module.
 */
let loading: Promise<typeof ExcelJS> | undefined;

export function loadExcelJS(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m: { default?: typeof ExcelJS }) => m.default ?? (m as unknown as typeof ExcelJS));
  return loading;
}
