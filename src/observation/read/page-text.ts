import type { SnapshotText } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import { namedIds } from './id-shapes.ts';

/** Reading helpers over the snapshot's visible text blocks, shared by extractors and adapters. */

export interface Labelled {
  label: string;
  value: string;
  /** Index of the block holding the value. */
  index: number;
  ref?: string;
  role?: string;
}

const MAX_LABEL = 40;
const MAX_VALUE = 200;

/**
 * `Status: Awaiting payment` in one block, or a label block (`Total:`, a `<dt>` term, a row
 * header) followed by its value block. Consumers filter labels by meaning.
 */
export function labelledValues(texts: readonly SnapshotText[]): Labelled[] {
  const out: Labelled[] = [];
  texts.forEach((block, index) => {
    const text = cleanText(block.text);
    const inline = /^([^:]{1,40}):\s*(.{1,200})$/.exec(text);
    if (inline) {
      out.push({ label: inline[1]!.trim(), value: inline[2]!.trim(), index, ref: block.ref, role: block.role });
      return;
    }
    // A block labels the next one only when it says so: `Total:`, a <dt> term, a row header.
    const next = texts[index + 1];
    const isLabel = /^[^:]+:$/.test(text) || block.role === 'term' || block.role === 'rowheader';
    if (!next || !isLabel || text.length > MAX_LABEL) return;
    const value = cleanText(next.text);
    if (value.length === 0 || value.length > MAX_VALUE || next.role === 'heading') return;
    out.push({ label: text.replace(/:$/, '').trim(), value, index: index + 1, ref: next.ref, role: next.role });
  });
  return out;
}

/**
 * The resource a heading names (`Order ORD-1024`, `Tracking for order ORD-1024`, `Checkout for
 * ORD-2003`, `Appointment #42`): a resource word before the id or an id whose prefix types it.
 * "Trail Runner 3" names none (id-shapes.ts).
 */
function headingResource(text: string): { type: string; id: string } | undefined {
  const named = namedIds(text)[0];
  return named ? { type: named.type, id: named.id } : undefined;
}

/** Index of the heading that names this resource id, if the page has one. */
export function resourceHeadingIndex(texts: readonly SnapshotText[], id: string): number {
  return texts.findIndex((t) => t.role === 'heading' && headingResource(t.text)?.id === id);
}

/** The short text blocks right after a heading and before the next heading (a badge, a subtitle). */
export function blocksAfterHeading(texts: readonly SnapshotText[], headingIndex: number, max = 2): Array<{ block: SnapshotText; index: number }> {
  const out: Array<{ block: SnapshotText; index: number }> = [];
  for (let i = headingIndex + 1; i < texts.length && out.length < max; i++) {
    const block = texts[i]!;
    if (block.role === 'heading') break;
    out.push({ block, index: i });
  }
  return out;
}
