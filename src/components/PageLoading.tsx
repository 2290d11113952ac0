import { useLayoutEffect } from 'react';
import { holdBootFrame } from '../lib/boot-frame';
import { BOOT_LOADING_STYLE, BOOT_SPINNER_STYLE, BOOT_SPIN_KEYFRAMES } from './page-loading-style';

/**
 * A blank page with a spinner and a word (used while the system config loads, spec §4: no brand
 * yet). Drawn with CSS rather than antd's Spin, which the first screen would otherwise load only for
 * this. index.html holds the same markup, so the page shows it before any script has run. While one
 * is mounted, personal.html's frame of 个人文件 stays over it (src/lib/boot-frame.ts).
 */
export function PageLoading() {
  useLayoutEffect(() => holdBootFrame(), []);
  return (
    <div style={BOOT_LOADING_STYLE} aria-busy="true">
      <style>{BOOT_SPIN_KEYFRAMES}</style>
      <span style={BOOT_SPINNER_STYLE} />
      <span>加载中…</span>
    </div>
  );
}
