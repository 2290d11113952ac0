import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  APPLY_OUTCOME_LABELS,
  LOGIN_CLIENT_LABELS,
  LOGIN_NETWORK_LABELS,
  REPORT_KIND_LABELS,
  type ApplyOutcome,
  type Report,
} from '../../../common/api/reports';
import { neutraliseCell } from '../../../common/org/sheet-cells';
import { csvLine } from '../action-log-export';
import { loadExcelJS } from '../exceljs-on-demand';

export type Cell = string | number;

/** One table of an export: a sheet of the workbook, a section of the CSV. */
export interface Sheet {
  name: string;
  columns: readonly string[];
  rows: readonly Cell[][];
}

const TOTAL = '合计';

/** The tables of a report, as 统计报表 shows them (the storage report with every person of the filter). */
export function sheetsOf(report: Report): Sheet[] {
  switch (report.kind) {
    case 'storage':
      return [
        {
          name: '部门',
          columns: ['部门', '部门路径', '人数', '已用空间（字节）', '配额（字节）', '含下级部门人数', '含下级已用空间（字节）', '含下级配额（字节）'],
          rows: [
            ...report.departments.map((d) => [d.name, d.path, d.people, d.used, d.quota, d.subtree.people, d.subtree.used, d.subtree.quota]),
            [TOTAL, '', report.totals.people, report.totals.used, report.totals.quota, '', '', ''],
          ],
        },
        {
          name: '人员',
          columns: ['账号', '姓名', '部门', '已用空间（字节）', '配额（字节）'],
          rows: report.people.map((p) => [p.account, p.name, p.departmentName, p.used, p.quota]),
        },
      ];
    case 'growth':
      return [
        {
          name: '增长趋势',
          columns: ['日期', '上传文件数', '上传字节数', '下载次数', '下载字节数', '存储占用（字节）', '活跃人数'],
          rows: [
            ...report.days.map((d) => [d.day, d.uploads, d.uploadBytes, d.downloads, d.downloadBytes, d.storedBytes ?? '', d.activePeople]),
            [TOTAL, report.totals.uploads, report.totals.uploadBytes, report.totals.downloads, report.totals.downloadBytes, '', ''],
          ],
        },
      ];
    case 'fileTypes':
      return [
        {
          name: '文件类型',
          columns: ['文件类型', '上传文件数', '字节数'],
          rows: [...report.types.map((t) => [t.ext || '（无扩展名）', t.count, t.bytes]), [TOTAL, report.totals.count, report.totals.bytes]],
        },
      ];
    case 'sharing':
      return [
        {
          name: '分享活动',
          columns: ['日期', '共享', '创建外链', '外链访问', '外链下载'],
          rows: [
            ...report.days.map((d) => [d.day, d.shares, d.links, d.linkVisits, d.linkDownloads]),
            [TOTAL, report.totals.shares, report.totals.links, report.totals.linkVisits, report.totals.linkDownloads],
          ],
        },
        {
          name: '分享申请',
          columns: ['结果', '数量'],
          rows: (Object.keys(APPLY_OUTCOME_LABELS) as ApplyOutcome[]).map((o) => [APPLY_OUTCOME_LABELS[o], report.applications[o]]),
        },
        { name: '审批人', columns: ['审批人', '通过', '驳回'], rows: report.approvers.map((a) => [a.name, a.approve, a.reject]) },
      ];
    case 'logins':
      return [
        {
          name: '登录方式',
          columns: ['客户端', '网络', '登录次数', '登录失败次数'],
          rows: [...report.rows.map((r) => [LOGIN_CLIENT_LABELS[r.client], LOGIN_NETWORK_LABELS[r.network], r.logins, r.failed]), [TOTAL, '', report.totals.logins, report.totals.failed]],
        },
        {
          name: '按日登录',
          columns: ['日期', '网页', '内网客户端（3）', '外网客户端（4）', '登录失败'],
          rows: report.days.map((d) => [d.day, d.web, d.client3, d.client4, d.failed]),
        },
      ];
  }
}

/** What the export says it is (its last sheet / first lines). */
export function aboutSheet(report: Report, range: string, department: string, exportedAt: string): Sheet {
  return {
    name: '说明',
    columns: ['项目', '内容'],
    rows: [
      ['报表', REPORT_KIND_LABELS[report.kind]],
      ['统计范围', report.kind === 'storage' ? '导出时的占用' : range],
      ['部门', department || '全部'],
      ['导出时间', exportedAt],
      ['时区', '北京时间（UTC+8）'],
    ],
  };
}

/** Text from users (names, accounts, departments) never runs as a formula; numbers stay numbers. */
function safe(cell: Cell): Cell {
  return typeof cell === 'number' ? cell : neutraliseCell(cell);
}

/** CSV: UTF-8 with a BOM, CRLF lines; each table its title line, its header and rows, then an empty line. */
function csvStream(sheets: readonly Sheet[]): Readable {
  function* lines(): Generator<string> {
    yield '\uFEFF';
    for (const s of sheets) {
      let batch = csvLine([s.name]) + csvLine(s.columns.map(neutraliseCell));
      for (const row of s.rows) {
        batch += csvLine(row.map((c) => String(safe(c))));
        if (batch.length >= 64 * 1024) {
          yield batch;
          batch = '';
        }
      }
      yield `${batch}\r\n`;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** XLSX through exceljs's streaming writer, one worksheet per table; waits while the answer's buffer is full. */
function xlsxStream(sheets: readonly Sheet[], signal: AbortSignal): Readable {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const run = async () => {
    const ExcelJS = await loadExcelJS();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    for (const s of sheets) {
      const sheet = workbook.addWorksheet(s.name);
      sheet.addRow([...s.columns]).commit();
      let n = 0;
      for (const row of s.rows) {
        sheet.addRow(row.map(safe)).commit();
        if (++n % 500 === 0 && out.writableNeedDrain) await once(out, 'drain', { signal });
      }
      sheet.commit();
    }
    await workbook.commit();
  };
  run().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export function reportExportStream(format: 'xlsx' | 'csv', sheets: readonly Sheet[], signal: AbortSignal): Readable {
  return format === 'csv' ? csvStream(sheets) : xlsxStream(sheets, signal);
}
