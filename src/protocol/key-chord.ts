/**
 * Key chords (`Enter`, `Shift+Tab`, `Control+a`, Playwright's syntax, checked by KeyChord in
 * src/protocol/action.ts) as the KeyboardEvent fields a browser would give them: `key`, `code`
 * and the legacy `keyCode` that older widget libraries (jQuery UI) still read. Pure.
 */

interface Modifiers {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export interface Chord extends Modifiers {
  /** KeyboardEvent.key (`Enter`, `ArrowDown`, `a`, ` `). */
  key: string;
  /** KeyboardEvent.code (`Enter`, `KeyA`, `Digit1`, `Space`). */
  code: string;
  keyCode: number;
  /** The character it types into a text field (none with Control, Alt or Meta held). */
  text?: string;
}

/** Named keys Steward can press: KeyboardEvent `key` → [code, keyCode]. */
const NAMED: Readonly<Record<string, readonly [string, number]>> = {
  Enter: ['Enter', 13],
  Tab: ['Tab', 9],
  Escape: ['Escape', 27],
  Backspace: ['Backspace', 8],
  Delete: ['Delete', 46],
  Insert: ['Insert', 45],
  ArrowUp: ['ArrowUp', 38],
  ArrowDown: ['ArrowDown', 40],
  ArrowLeft: ['ArrowLeft', 37],
  ArrowRight: ['ArrowRight', 39],
  Home: ['Home', 36],
  End: ['End', 35],
  PageUp: ['PageUp', 33],
  PageDown: ['PageDown', 34],
  Shift: ['ShiftLeft', 16],
  Control: ['ControlLeft', 17],
  Alt: ['AltLeft', 18],
  Meta: ['MetaLeft', 91],
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, [`F${i + 1}`, 112 + i] as const])),
};

/** Punctuation on a US layout: character → [code, keyCode]. */
const PUNCTUATION: Readonly<Record<string, readonly [string, number]>> = {
  ' ': ['Space', 32],
  '-': ['Minus', 189],
  '=': ['Equal', 187],
  '[': ['BracketLeft', 219],
  ']': ['BracketRight', 221],
  '\\': ['Backslash', 220],
  ';': ['Semicolon', 186],
  "'": ['Quote', 222],
  ',': ['Comma', 188],
  '.': ['Period', 190],
  '/': ['Slash', 191],
  '`': ['Backquote', 192],
};

/** `Space` is how Playwright (and people) name the space bar. */
const ALIASES: Readonly<Record<string, string>> = { Space: ' ', Esc: 'Escape' };

export type ChordParse = { ok: true; chord: Chord } | { ok: false; message: string };

export function parseChord(chord: string): ChordParse {
  const parts = chord === '+' ? ['+'] : chord.endsWith('++') ? [...chord.slice(0, -2).split('+'), '+'] : chord.split('+');
  const named = parts[parts.length - 1]!;
  const mods = parts.slice(0, -1);
  const m: Modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  for (const mod of mods) {
    const field = ({ Control: 'ctrlKey', Shift: 'shiftKey', Alt: 'altKey', Meta: 'metaKey' } as const)[mod as 'Control'];
    if (!field || m[field]) return { ok: false, message: `${JSON.stringify(chord)}: ${JSON.stringify(mod)} is not a modifier (Control, Shift, Alt, Meta), or is repeated` };
    m[field] = true;
  }
  const key = ALIASES[named] ?? named;
  const typing = !m.ctrlKey && !m.altKey && !m.metaKey;
  if ([...key].length === 1) {
    const lower = key.toLowerCase();
    const punct = PUNCTUATION[key];
    let code: string;
    let keyCode: number;
    if (/^[a-z]$/.test(lower)) [code, keyCode] = [`Key${lower.toUpperCase()}`, lower.toUpperCase().charCodeAt(0)];
    else if (/^[0-9]$/.test(key)) [code, keyCode] = [`Digit${key}`, key.charCodeAt(0)];
    else if (punct) [code, keyCode] = punct;
    else [code, keyCode] = ['', 0];
    // Shift+a types "A", as on a keyboard.
    const typed = m.shiftKey && /^[a-z]$/.test(key) ? key.toUpperCase() : key;
    return { ok: true, chord: { ...m, key: typed, code, keyCode, ...(typing ? { text: typed } : {}) } };
  }
  const known = NAMED[key];
  if (!known)
    return { ok: false, message: `${JSON.stringify(named)} is not a key Steward knows (named keys: Enter, Tab, Escape, Space, Backspace, Delete, arrows, Home, End, PageUp, PageDown, F1–F12)` };
  return { ok: true, chord: { ...m, key, code: known[0], keyCode: known[1] } };
}

/** Keys that only move around (focus, a caret, a selection, a value within a widget) and never activate. */
const NAVIGATION_KEYS: ReadonlySet<string> = new Set(['Tab', 'Escape', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'Shift', 'Control', 'Alt', 'Meta']);

/** What a chord can do, for the risk rules (src/pipeline/policy/dom-risk.ts, src/observation/fusion/dom-actions.ts). */
export type KeyIntent = 'submit' | 'activate' | 'navigate' | 'text' | 'shortcut';

export function keyIntent(chord: Chord): KeyIntent {
  if (chord.key === 'Enter') return 'submit';
  if (chord.key === ' ' && chord.text !== undefined) return 'activate';
  if (NAVIGATION_KEYS.has(chord.key) && !chord.ctrlKey && !chord.metaKey && !chord.altKey) return 'navigate';
  if (chord.ctrlKey && !chord.altKey && !chord.metaKey && (chord.key === 'a' || chord.key === 'c')) return 'navigate';
  if (chord.text !== undefined || ((chord.key === 'Backspace' || chord.key === 'Delete') && !chord.ctrlKey && !chord.metaKey && !chord.altKey)) return 'text';
  return 'shortcut';
}
