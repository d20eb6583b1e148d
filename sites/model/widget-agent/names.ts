/**
 * How the widget agent compares what a person says ("Reports", "the large red circle") with what
 * a view shows (`button "▸ Reports"`, `circle firebrick large`), the same way for every view (pure).
 */

/** Icons and pictographs a name may carry (`▸ Reports`, `📄 lease.pdf`, `✕`): not words a person says. */
const ICONS = /[\p{So}\p{Co}\u2800-\u28ff]/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** The text without its icons (`▸ Documents` → `Documents`), case kept: what `getByText` can find. */
export function withoutIcons(text: string): string {
  return HAS_WORD.test(text) ? text.replace(ICONS, ' ').replace(/\s+/g, ' ').trim() : text.trim();
}

/** A name as compared: NFKC, lower case, icons dropped when there are words, spaces collapsed. */
function normalize(text: string): string {
  const t = text.normalize('NFKC').toLowerCase();
  return (HAS_WORD.test(t) ? t.replace(ICONS, ' ') : t).replace(/\s+/g, ' ').trim();
}

/** The words of a text (letters and digits), lower case. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * How well `shown` answers to `said`: 2 the same name, 1 the name within a longer text (as whole
 * words: "Returns" in "Returns ▸", not "Return" in "Returns"), 0 not at all. A name of symbols
 * alone ("+", "⠿") is found only as itself.
 */
export function nameMatch(said: string, shown: string): 0 | 1 | 2 {
  const a = normalize(said);
  const b = normalize(shown);
  if (a === '' || b === '') return 0;
  if (a === b) return 2;
  const want = wordsOf(said);
  if (want.length === 0) return shown.includes(said.trim()) ? 1 : 0;
  const have = wordsOf(shown);
  for (let i = 0; i + want.length <= have.length; i++) if (want.every((w, k) => have[i + k] === w)) return 1;
  return 0;
}

/**
 * The colour family of a CSS colour keyword, as a person names it: `firebrick` and `crimson` are
 * red, `royalblue` and `navy` blue. Keywords naming their family (`darkred`, `dodgerblue`) are
 * found by it; the others are listed.
 */
const FAMILIES = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white'] as const;
const OTHER_KEYWORDS: Readonly<Record<string, (typeof FAMILIES)[number]>> = {
  crimson: 'red',
  firebrick: 'red',
  maroon: 'red',
  tomato: 'red',
  salmon: 'red',
  coral: 'orange',
  gold: 'yellow',
  goldenrod: 'yellow',
  khaki: 'yellow',
  lime: 'green',
  olive: 'green',
  teal: 'green',
  navy: 'blue',
  cyan: 'blue',
  aqua: 'blue',
  turquoise: 'blue',
  indigo: 'purple',
  violet: 'purple',
  magenta: 'purple',
  fuchsia: 'purple',
  orchid: 'purple',
  plum: 'purple',
  chocolate: 'brown',
  sienna: 'brown',
  tan: 'brown',
  gray: 'grey',
  silver: 'grey',
  gainsboro: 'grey',
};

export function colourFamily(keyword: string): string {
  const k = keyword.toLowerCase().replace(/[^a-z]/g, '');
  if (FAMILIES.includes(k as (typeof FAMILIES)[number])) return k;
  const own = OTHER_KEYWORDS[k];
  if (own) return own;
  // `darkred`, `dodgerblue`, `lightslategray`, `mediumvioletred`: the family is the name's last word.
  const named = [...FAMILIES, 'gray'].filter((f) => k.endsWith(f));
  if (named.length > 0) return named[0] === 'gray' ? 'grey' : named[0]!;
  return k;
}

/** Shape kinds as a person says them: a square is a rect, a triangle a polygon (when the view says only that). */
export function shapeKindMatches(said: string, shown: string): boolean {
  if (said === shown) return true;
  return (said === 'square' && shown === 'rect') || (said === 'triangle' && shown === 'polygon');
}
