import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerEChartsParts, type ComposeOption, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { DataZoomComponentOption, GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import { useEffect, useRef } from 'react';

// Only what these pages draw: tree-shaken, and loaded with them alone (a lazy page's chunk).
registerEChartsParts([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, SVGRenderer]);

export type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption | DataZoomComponentOption>;

/** The app's palette (antd's primary blue first), so charts sit with the rest of the page. */
const COLORS = ['#1677ff', '#52c41a', '#faad14', '#13c2c2', '#eb2f96', '#722ed1', '#fa8c16', '#2f54eb', '#a0d911', '#8c8c8c'];

/**
 * A thin React wrapper of ECharts: one chart per element, the option set (not merged) when it
 * changes, resized with its box, disposed with the component. SVG: crisp at any zoom, and the
 * chart's text stays in the DOM (tests and screen readers see the figures).
 */
export function EChart({ option, height = 260, label, testId }: { option: ChartOption; height?: number; label: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = init(el, null, { renderer: 'svg' });
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ color: COLORS, animationDuration: 300, ...option }, { notMerge: true });
  }, [option]);

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} data-testid={testId} />;
}
