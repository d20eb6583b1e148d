import { describe, expect, it } from 'vitest';
import { snapshotDigest } from '../../../src/observation/snapshot-digest.ts';
import type { SnapshotElement, SnapshotText } from '../../../src/observation/snapshot.ts';

const element = (n: number): SnapshotElement => ({ ref: `e${n}`, role: 'button', name: `Button ${n}`, states: [], visibility: 'visible', tag: 'button', scope: 'document', order: n, box: { x: 10, y: 20 * n, w: 80, h: 18 } });
const text = (n: number): SnapshotText => ({ text: `Cell ${n}`, role: 'cell', order: 100 + n, container: { ref: 't1', row: n } });
const page = () => ({ elements: [1, 2, 3].map(element), texts: [1, 2].map(text) });

describe('snapshotDigest', () => {
  it('is the same for the same content, built anew', () => {
    expect(snapshotDigest(page())).toBe(snapshotDigest(JSON.parse(JSON.stringify(page()))));
    expect(Number.isInteger(snapshotDigest(page())) && snapshotDigest(page()) >= 0).toBe(true);
  });

  it('changes with a box one pixel off, an order, a name, a value, a row, or a text', () => {
    const base = snapshotDigest(page());
    const changed = (edit: (p: ReturnType<typeof page>) => void) => {
      const p = page();
      edit(p);
      return snapshotDigest(p);
    };
    expect(changed((p) => (p.elements[1]!.box!.y += 1))).not.toBe(base);
    expect(changed((p) => (p.elements[2]!.order = 9))).not.toBe(base);
    expect(changed((p) => (p.elements[0]!.name = 'Button 7'))).not.toBe(base);
    expect(changed((p) => (p.elements[0]!.value = 'x'))).not.toBe(base);
    expect(changed((p) => (p.elements[0]!.visibility = 'covered'))).not.toBe(base);
    expect(changed((p) => delete p.elements[0]!.box)).not.toBe(base);
    expect(changed((p) => (p.texts[1]!.container = { ref: 't1', row: 5 }))).not.toBe(base);
    expect(changed((p) => (p.texts[0]!.order = 99))).not.toBe(base);
    expect(changed((p) => (p.texts[0]!.text = 'Cell 1!'))).not.toBe(base);
    expect(changed((p) => p.texts.reverse())).not.toBe(base);
    expect(changed((p) => p.elements.pop())).not.toBe(base);
  });
});
