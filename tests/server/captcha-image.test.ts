import { describe, expect, it } from 'vitest';
import { CAPTCHA_INKS, drawCaptcha } from '../../server/services/captcha-image';

/** WCAG relative luminance and contrast against white. */
function contrastOnWhite(hex: string): number {
  const full = hex.length === 4 ? hex.slice(1).split('').map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return 1.05 / (l + 0.05);
}

describe('captcha picture', () => {
  it('draws four characters as outlines in dark inks (≥ 7:1 on white) with noise curves, never as text', () => {
    for (const ink of CAPTCHA_INKS) expect(contrastOnWhite(ink), ink).toBeGreaterThanOrEqual(7);
    for (let i = 0; i < 20; i++) {
      const { text, svg } = drawCaptcha();
      expect(text).toMatch(/^[A-Za-z0-9]{4}$/);
      const fills = [...svg.matchAll(/<path fill="(#[0-9a-f]+)"/gi)].map((m) => m[1]!);
      expect(fills).toHaveLength(4);
      for (const fill of fills) expect(CAPTCHA_INKS).toContain(fill);
      expect([...svg.matchAll(/fill="none"/g)]).toHaveLength(3);
      expect(svg).not.toContain('<text');
      expect(svg).not.toContain(text);
    }
  });
});
