import { describe, expect, it } from 'vitest';
import { buttonWidth, fittingCount, MORE_BUTTON_WIDTH, textWidth } from '../../../src/features/files/browser/toolbar-fit';

describe('toolbar fitting', () => {
  it('estimates CJK text as 14 px a character and Latin as 8', () => {
    expect(textWidth('下载')).toBe(28);
    expect(textWidth('PDF')).toBe(24);
    expect(buttonWidth('下载')).toBe(60);
    expect(buttonWidth('下载', true)).toBe(82);
  });
  it('shows everything that fits, and otherwise keeps room for 更多', () => {
    expect(fittingCount([100, 100, 100], 300)).toBe(3);
    expect(fittingCount([100, 100, 100], 299)).toBe(Math.floor((299 - MORE_BUTTON_WIDTH) / 100));
    expect(fittingCount([100, 100, 100], 10)).toBe(1);
    expect(fittingCount([100, 100, 100], 10, 0)).toBe(0);
    expect(fittingCount([], 10)).toBe(0);
  });
});
