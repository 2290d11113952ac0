import { randomInt } from 'node:crypto';
import svgCaptcha from 'svg-captcha';

/** Characters easy to confuse with one another are never drawn. */
const CONFUSABLE = '0oO1lIiq9gZ2zs5S';

/**
 * Dark, saturated ink for the characters: each at least 7:1 against the white the picture sits on
 * (svg-captcha's own colours are 55-75 % lightness on white, which users found pale and hard to read).
 */
export const CAPTCHA_INKS = ['#1d39c4', '#a8071a', '#135200', '#531dab', '#613400', '#003a8c', '#262626', '#9e1068'] as const;

/**
 * A real captcha still: four characters drawn as distorted outlines (no text to read from the SVG),
 * crossed by noise curves, each character in its own ink.
 */
export function drawCaptcha(): { text: string; svg: string } {
  const captcha = svgCaptcha.create({ size: 4, ignoreChars: CONFUSABLE, noise: 3, color: false, width: 120, height: 40, fontSize: 46 });
  // Without colour, svg-captcha fills characters with a dark grey and strokes noise in greys:
  // the fills (characters only; the noise curves have fill="none") get the inks.
  const svg = captcha.data.replace(/<path fill="#[0-9a-f]{3,6}"/gi, () => `<path fill="${CAPTCHA_INKS[randomInt(CAPTCHA_INKS.length)]}"`);
  return { text: captcha.text, svg };
}
