/** Escapes text for an SVG text node. */
function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The default tenant logo: a cloud mark and the first character of the brand, generated in code. */
export function defaultLogoSvg(brandName: string): string {
  const initial = escapeXml(Array.from(brandName)[0] ?? '云');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#3b82f6"/><stop offset="1" stop-color="#1d4ed8"/>
  </linearGradient></defs>
  <rect width="128" height="128" rx="28" fill="url(#g)"/>
  <path d="M38 86h52a18 18 0 0 0 2-35.9A26 26 0 0 0 42.5 56 15 15 0 0 0 38 86z" fill="#fff" opacity="0.92"/>
  <text x="64" y="80" font-size="30" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#1d4ed8">${initial}</text>
</svg>
`;
}
