import type { SnapshotText } from '../protocol/snapshot.ts';

/**
 * A snapshot's texts told against the previous snapshot's (pure; the page encodes, the service
 * worker applies): runs of the previous texts — [first index, count, order shift], the same
 * words with `order` moved by the shift — and texts of their own, in order. Inserting a notice
 * above a table shifts every later text's `order` by one, so thousands of unchanged texts travel
 * as one run.
 */

export type TextRun = [first: number, count: number, orderShift: number];
export type TextPiece = TextRun | SnapshotText;

/**
 * Adds index `at`, shifted by `shift`, to the list's last run when it continues it (the next
 * index, the same shift), else starts a run. (Element order shifts use the same runs.)
 */
export function extendRun(list: Array<TextRun | SnapshotText>, at: number, shift: number): void {
  const last = list[list.length - 1];
  if (Array.isArray(last) && last[0] + last[1] === at && last[2] === shift) last[1]++;
  else list.push([at, 1, shift]);
}

const sameRow = (a: SnapshotText['container'], b: SnapshotText['container']) => a === b || (a?.ref === b?.ref && a?.row === b?.row);

/** The same words in the same place of the page's structure (`order` aside). */
function sameWords(x: SnapshotText, y: SnapshotText): boolean {
  return x === y || (x.text === y.text && x.role === y.role && x.level === y.level && x.ref === y.ref && x.landmark === y.landmark && x.volatile === y.volatile && sameRow(x.container, y.container));
}

export interface EncodedTexts {
  pieces: TextPiece[];
  /** How many texts travel in full (the rest are runs). */
  literals: number;
  /** Every text as it was, `order` included: nothing to send. */
  unchanged: boolean;
}

/** How far ahead a text inserted or removed is looked for. */
const LOOKAHEAD = 16;

/**
 * `now` against `before`, walking both in order: a text with the same words as the next of
 * `before` is a run; otherwise a few texts inserted (found again a little further in `now`) or
 * removed (further in `before`) are stepped over, and anything else is a text of its own.
 * Gives up (everything literal) once more than `maxLiterals` texts would travel in full.
 * `beforeOrders`: the orders `before` had when it was told (the page reuses an unchanged text's
 * object in the next snapshot and moves its `order` there); without it, `before`'s own.
 */
export function encodeTexts(now: readonly SnapshotText[], before: readonly SnapshotText[], maxLiterals = Infinity, beforeOrders?: readonly number[]): EncodedTexts {
  const n = now.length;
  const m = before.length;
  const pieces: TextPiece[] = [];
  let literals = 0;
  let unchanged = n === m;
  const keep = (i: number, j: number) => {
    const order = now[i]!.order ?? 0;
    const was = beforeOrders ? beforeOrders[j]! : (before[j]!.order ?? 0);
    const shift = order - was;
    if (i !== j || (beforeOrders ? shift !== 0 : now[i]!.order !== before[j]!.order)) unchanged = false;
    extendRun(pieces, j, shift);
  };
  const own = (i: number) => {
    pieces.push(now[i]!);
    literals++;
    unchanged = false;
  };
  let i = 0;
  let j = 0;
  while (i < n) {
    if (literals > maxLiterals) return { pieces: now.slice(), literals: n, unchanged: false };
    if (j < m && sameWords(now[i]!, before[j]!)) {
      keep(i++, j++);
      continue;
    }
    unchanged = false;
    // Changed in place (the next ones agree again), inserted (`before[j]` comes later in `now`), or removed.
    let step: 'replace' | 'insert' | 'remove' = 'replace';
    for (let k = 1; k <= LOOKAHEAD; k++) {
      if (j < m && i + k < n && sameWords(now[i + k]!, before[j]!)) {
        step = 'insert';
        break;
      }
      if (j + k < m && sameWords(now[i]!, before[j + k]!)) {
        step = 'remove';
        j += k;
        break;
      }
      if (k === 1 && i + 1 < n && j + 1 < m && sameWords(now[i + 1]!, before[j + 1]!)) break;
    }
    if (step === 'remove') continue;
    own(i++);
    if (step === 'replace') j++;
  }
  return { pieces, literals, unchanged };
}

/**
 * The texts `pieces` describe against `base`; undefined when a run reaches past it, an order
 * would go negative, or there would be more than `max` texts (pieces come from a page: runs of
 * a base may repeat, and must not multiply it).
 */
export function applyTexts(base: readonly SnapshotText[], pieces: readonly TextPiece[], max: number): SnapshotText[] | undefined {
  const out: SnapshotText[] = [];
  for (const piece of pieces) {
    if (out.length + (Array.isArray(piece) ? (piece as TextRun)[1] : 1) > max) return undefined;
    if (!Array.isArray(piece)) {
      out.push(piece as SnapshotText);
      continue;
    }
    const [first, count, shift] = piece as TextRun;
    if (first + count > base.length) return undefined;
    for (let j = first; j < first + count; j++) {
      const text = base[j]!;
      if (shift === 0) {
        out.push(text);
        continue;
      }
      const order = (text.order ?? 0) + shift;
      if (order < 0) return undefined;
      out.push({ ...text, order });
    }
  }
  return out;
}
