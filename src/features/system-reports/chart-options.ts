import { formatSize } from '../../../common/format/size';
import type { DepartmentStorage, DesktopVersionInUse, PersonStorage, TransferDay } from '../../../common/api/reports';
import type { ChartOption } from './EChart';

/** yyyy-MM-dd → MM-dd (the axis has room for 30 of them). */
export const shortDay = (day: string): string => day.slice(5);

/** Day labels counted back from the last one: the newest day (today) always has its label. */
const fromLastDay = (count: number, room = 10) => {
  const step = Math.max(1, Math.ceil(count / room));
  return (index: number) => (count - 1 - index) % step === 0;
};

const bytesAxis = { type: 'value' as const, axisLabel: { formatter: (v: number) => formatSize(v) } };
const countAxis = { type: 'value' as const, minInterval: 1 };

/** Uploads and downloads per day: counts as bars, bytes as lines on the second axis. */
export function transfersOption(days: readonly TransferDay[]): ChartOption {
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => String(v ?? ''),
    },
    legend: { top: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: days.map((d) => shortDay(d.day)), axisLabel: { interval: fromLastDay(days.length) } },
    yAxis: [
      { ...countAxis, name: '次数' },
      { ...bytesAxis, name: '流量', splitLine: { show: false } },
    ],
    series: [
      { name: '上传文件数', type: 'bar', data: days.map((d) => d.uploads) },
      { name: '下载次数', type: 'bar', data: days.map((d) => d.downloads) },
      { name: '上传流量', type: 'line', yAxisIndex: 1, smooth: true, data: days.map((d) => d.uploadBytes), tooltip: { valueFormatter: (v) => formatSize(Number(v)) } },
      { name: '下载流量', type: 'line', yAxisIndex: 1, smooth: true, data: days.map((d) => d.downloadBytes), tooltip: { valueFormatter: (v) => formatSize(Number(v)) } },
    ],
  };
}

/** Used against quota: a ring. */
export function quotaRingOption(used: number, quota: number): ChartOption {
  return {
    tooltip: { trigger: 'item', valueFormatter: (v) => formatSize(Number(v)) },
    series: [
      {
        type: 'pie',
        radius: ['58%', '80%'],
        // One label in the middle (on the used part only: each part would draw its own).
        data: [
          { name: '已用', value: used, label: { show: true, position: 'center', formatter: () => (quota > 0 ? `${((used / quota) * 100).toFixed(1)}%\n已用` : formatSize(used)), fontSize: 20, fontWeight: 600, lineHeight: 26 } },
          { name: '未用', value: Math.max(0, quota - used), itemStyle: { color: '#f0f0f0' }, label: { show: false } },
        ],
      },
    ],
  };
}

/** Horizontal bars: used and the rest of the quota, stacked (largest on top). */
export function storageBarsOption(rows: ReadonlyArray<Pick<DepartmentStorage | PersonStorage, 'used' | 'quota'> & { label: string }>): ChartOption {
  const list = [...rows].reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => formatSize(Number(v)) },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: bytesAxis,
    yAxis: { type: 'category', data: list.map((r) => r.label), axisLabel: { width: 96, overflow: 'truncate' } },
    series: [
      { name: '已用', type: 'bar', stack: 'q', data: list.map((r) => r.used) },
      { name: '剩余配额', type: 'bar', stack: 'q', itemStyle: { color: '#d9d9d9' }, data: list.map((r) => Math.max(0, r.quota - r.used)) },
    ],
  };
}

export function versionsOption(versions: readonly DesktopVersionInUse[]): ChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}：{c} 个会话（{d}%）' },
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        type: 'pie',
        radius: ['35%', '65%'],
        center: ['50%', '45%'],
        data: versions.map((v) => ({ name: `${v.clientType === 4 ? '外网' : '内网'} ${v.version || '未知版本'}`, value: v.sessions })),
      },
    ],
  };
}

/** Daily series as lines or bars, one per named field. */
export function dailyOption<T extends { day: string }>(days: readonly T[], series: ReadonlyArray<{ name: string; value: (d: T) => number | null; type?: 'bar' | 'line'; bytes?: boolean; stack?: string }>): ChartOption {
  const anyBytes = series.some((s) => s.bytes);
  const anyCounts = series.some((s) => !s.bytes);
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 8, top: 36, bottom: days.length > 45 ? 40 : 8, containLabel: true },
    dataZoom: days.length > 45 ? [{ type: 'slider', height: 18, bottom: 6 }] : [],
    xAxis: { type: 'category', data: days.map((d) => d.day), axisLabel: { interval: fromLastDay(days.length, 7) } },
    yAxis: [...(anyCounts ? [{ ...countAxis, name: '次数' }] : []), ...(anyBytes ? [{ ...bytesAxis, name: '字节', splitLine: { show: !anyCounts } }] : [])],
    series: series.map((s) => ({
      name: s.name,
      type: s.type ?? 'line',
      stack: s.stack,
      yAxisIndex: s.bytes && anyCounts ? 1 : 0,
      connectNulls: true,
      smooth: true,
      data: days.map(s.value),
      tooltip: s.bytes ? { valueFormatter: (v) => formatSize(Number(v)) } : undefined,
    })),
  };
}

export function pieOption(rows: ReadonlyArray<{ name: string; value: number }>, bytes = false): ChartOption {
  return {
    tooltip: { trigger: 'item', valueFormatter: bytes ? (v) => formatSize(Number(v)) : undefined },
    legend: { type: 'scroll', bottom: 0 },
    series: [{ type: 'pie', radius: ['30%', '62%'], center: ['50%', '44%'], data: rows.map((r) => ({ ...r })) }],
  };
}
