/**
 * The name a person gives a colour (pure): a computed CSS colour (`rgb(211, 47, 47)`) to the
 * nearest of a small palette of CSS colour keywords, by hue, saturation and lightness rather than
 * by RGB distance (which calls a mid blue `teal`). Absent for what paints nothing: `none`, a
 * transparent colour, a gradient or pattern (`url(#…)`).
 */

/** The keywords names are taken from (all CSS colour keywords). */
type ColourName = 'black' | 'white' | 'gray' | 'red' | 'orange' | 'brown' | 'yellow' | 'green' | 'teal' | 'blue' | 'navy' | 'purple' | 'pink';

const RGB = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/i;
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `rgb(…)`, `rgba(…)` (as getComputedStyle gives them) or `#rgb` / `#rrggbb`; undefined for anything else or a colour too transparent to see. */
function parseColour(css: string): { r: number; g: number; b: number } | undefined {
  const text = css.trim();
  const hex = HEX.exec(text);
  if (hex) {
    const h = hex[1]!;
    const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
    return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
  }
  const m = RGB.exec(text);
  if (!m) return undefined;
  const alphaText = m[4];
  const alpha = alphaText === undefined ? 1 : alphaText.endsWith('%') ? Number(alphaText.slice(0, -1)) / 100 : Number(alphaText);
  if (!(alpha >= 0.1)) return undefined;
  const [r, g, b] = [m[1], m[2], m[3]].map((v) => Math.min(255, Number(v)));
  return Number.isFinite(r) && Number.isFinite(g) && Number.isFinite(b) ? { r: r!, g: g!, b: b! } : undefined;
}

/** Hue (0–360), saturation and lightness (0–1) of an RGB colour. */
function hsl({ r, g, b }: { r: number; g: number; b: number }): { h: number; s: number; l: number } {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === R) h = ((G - B) / d) % 6;
  else if (max === G) h = (B - R) / d + 2;
  else h = (R - G) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

export function colourName(css: string | null | undefined): ColourName | undefined {
  if (!css) return undefined;
  const rgb = parseColour(css);
  if (!rgb) return undefined;
  const { h, s, l } = hsl(rgb);
  if (l < 0.12) return 'black';
  if (l > 0.93) return 'white';
  if (s < 0.2) return l < 0.2 ? 'black' : l > 0.85 ? 'white' : 'gray';
  if (h < 15 || h >= 345) return l > 0.75 ? 'pink' : l < 0.3 ? 'brown' : 'red';
  if (h < 45) return l < 0.35 ? 'brown' : 'orange';
  if (h < 70) return l < 0.3 ? 'brown' : 'yellow';
  if (h < 165) return 'green';
  if (h < 195) return 'teal';
  if (h < 255) return l < 0.3 ? 'navy' : 'blue';
  if (h < 290) return 'purple';
  return l > 0.6 || h >= 320 ? 'pink' : 'purple';
}
