/**
 * Text written into a spreadsheet we hand out (import results, exports): a cell starting with
 * `=`, `+`, `-`, `@` (or a tab / carriage return, which some programs skip before reading a formula)
 * would run as a formula when opened (CSV/formula injection, OWASP). Such a cell gets a leading `'`,
 * which spreadsheet programs read as "this is text" and do not show.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
