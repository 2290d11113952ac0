import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { ACTION_OUTCOMES, actionLabel, type ActionOutcome, type ActionTarget } from '../../common/api/action-codes';
import { ACTION_LOG_EXPORT_COLUMNS, ACTION_LOG_EXPORT_MAX_ROWS, type ActionLogExportFormat } from '../../common/api/action-log';
import { ROLES } from '../../common/api/types';
import { neutraliseCell } from '../../common/org/sheet-cells';
import type { ActionLogTable } from '../db/schema';
import { loadExcelJS } from './exceljs-on-demand';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `yyyy-MM-dd HH:mm:ss` in the viewer's zone (tzOffset: minutes as the browser's getTimezoneOffset gives them). */
export function formatExportTime(at: number, tzOffset: number): string {
  const d = new Date(at - tzOffset * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

const ROLE_LABELS: Record<string, string> = { ...Object.fromEntries(ROLES.map((r) => [r.code, r.name])), system: '系统', '': '' };
const CLIENT_TYPES: Record<number, string> = { 3: '内网版（3）', 4: '外网版（4）' };
const NETWORKS: Record<string, string> = { internal: '内网', public: '外网', '': '' };
const PLATFORMS: Record<string, string> = { web: '网页端', desktop: '桌面端', server: '服务器', '': '' };

/** A spreadsheet cell holds at most 32,767 characters (Excel); longer text is cut with a note. */
const CELL_MAX = 32_000;
function fit(text: string): string {
  return text.length <= CELL_MAX ? text : `${text.slice(0, CELL_MAX)}…（已截断）`;
}

/**
 * One row of the export, every cell a string. Text that came from users (names, accounts, user
 * agents, details) is neutralised: a cell starting with = + - @ or a tab / CR gets a leading ', so
 * no spreadsheet program runs it as a formula (CSV injection).
 */
export function exportCells(row: ActionLogTable, tzOffset: number, departmentName: (id: string | null) => string): string[] {
  const targets = JSON.parse(row.targets) as ActionTarget[];
  const cells = [
    formatExportTime(Number(row.at), tzOffset),
    row.actor_account,
    row.actor_name,
    ROLE_LABELS[row.actor_role] ?? row.actor_role,
    departmentName(row.dept_id),
    actionLabel(row.action),
    row.action,
    fit(targets.map((t) => t.name || t.id).join('、')),
    fit(targets.map((t) => t.id).filter(Boolean).join(',')),
    ACTION_OUTCOMES[row.outcome as ActionOutcome] ?? row.outcome,
    row.error_code ?? '',
    fit(row.detail ?? ''),
    row.address,
    row.client_type === null ? '' : (CLIENT_TYPES[Number(row.client_type)] ?? String(row.client_type)),
    NETWORKS[row.network_env] ?? row.network_env,
    PLATFORMS[row.platform] ?? row.platform,
    row.user_agent,
    String(row.seq),
    row.hash,
  ];
  return cells.map(neutraliseCell);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

export interface ExportSource {
  /** Pages of rows, newest first; stops when the signal aborts. */
  pages: AsyncIterable<ActionLogTable[]>;
  tzOffset: number;
  departmentName: (id: string | null) => string;
  signal: AbortSignal;
}

/** The last row of an export cut at ACTION_LOG_EXPORT_MAX_ROWS. */
function truncationNote(): string[] {
  return [`已达导出上限 ${ACTION_LOG_EXPORT_MAX_ROWS} 条，更早的记录未导出：请缩小时间范围后分批导出`];
}

async function* rowsOf(source: ExportSource): AsyncGenerator<string[]> {
  let count = 0;
  for await (const page of source.pages) {
    for (const row of page) {
      if (count === ACTION_LOG_EXPORT_MAX_ROWS) {
        yield truncationNote();
        return;
      }
      count++;
      yield exportCells(row, source.tzOffset, source.departmentName);
    }
  }
}

/** CSV: UTF-8 with a BOM (Excel then reads the Chinese right), CRLF lines, RFC 4180 quoting. */
function csvStream(source: ExportSource): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${csvLine(ACTION_LOG_EXPORT_COLUMNS)}`;
    let batch = '';
    for await (const cells of rowsOf(source)) {
      batch += csvLine(cells);
      if (batch.length >= 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }
  return Readable.from(lines(), { objectMode: false });
}

/**
 * XLSX through exceljs's streaming writer: rows are committed as they come and never held; after
 * each page the writer waits while the answer's buffer is full, so a slow client holds the walk
 * instead of growing the server's memory.
 */
function xlsxStream(source: ExportSource): Readable {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const run = async () => {
    const ExcelJS = await loadExcelJS();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet('操作日志');
    sheet.addRow([...ACTION_LOG_EXPORT_COLUMNS]).commit();
    let n = 0;
    for await (const cells of rowsOf(source)) {
      sheet.addRow(cells).commit();
      if (++n % 500 === 0 && out.writableNeedDrain) await once(out, 'drain', { signal: source.signal });
    }
    sheet.commit();
    await workbook.commit();
  };
  run().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export function exportStream(format: ActionLogExportFormat, source: ExportSource): Readable {
  return format === 'csv' ? csvStream(source) : xlsxStream(source);
}
