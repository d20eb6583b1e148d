/**
 * Stylesheets Steward adds to a page itself (the hover emulation's, src/content/act/hover-style.ts):
 * the style scan skips them, so Steward never reads its own rules as the page's.
 */
const own = new WeakSet<CSSStyleSheet>();

export function markStewardSheet(sheet: CSSStyleSheet): CSSStyleSheet {
  own.add(sheet);
  return sheet;
}

export function isStewardSheet(sheet: CSSStyleSheet): boolean {
  return own.has(sheet);
}
