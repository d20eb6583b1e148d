import { describe, expect, it } from 'vitest';
import { snapshotDigest } from '../../../src/observation/snapshot-digest.ts';
import { PageSnapshotSchema } from '../../../src/protocol/messages.ts';
import { ELEMENT_FIELDS, OTHER_ELEMENT_FIELDS } from './fixtures/element-fields.ts';
import type { SnapshotElement, SnapshotText } from '../../../src/protocol/snapshot.ts';

const element = (n: number): SnapshotElement => ({
  ref: `e${n}`,
  role: 'button',
  name: `Button ${n}`,
  states: [],
  visibility: 'visible',
  tag: 'button',
  scope: 'document',
  order: n,
  box: { x: 10, y: 20 * n, w: 80, h: 18 },
});
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

  it('reads every field of elements and texts, and every character of their strings', () => {
    const base = snapshotDigest(page());
    expect(Object.keys(OTHER_ELEMENT_FIELDS).sort()).toEqual([...ELEMENT_FIELDS].sort());
    for (const [field, value] of Object.entries(OTHER_ELEMENT_FIELDS)) {
      const p = page();
      (p.elements[0] as unknown as Record<string, unknown>)[field] = value;
      expect(snapshotDigest(p), field).not.toBe(base);
    }
    // Same length, same ends: only a middle character differs.
    const renamed = page();
    renamed.elements[0]!.name = 'Bxtton 1';
    expect(snapshotDigest(renamed)).not.toBe(base);
    const textShape = (PageSnapshotSchema.shape.texts.element as unknown as { shape: Record<string, unknown> }).shape;
    const otherText: Record<string, unknown> = { text: 'Cxll 1', ref: 'e5', role: 'heading', level: 2, order: 42, container: { ref: 't2', row: 1 }, landmark: 'breadcrumb', volatile: true };
    expect(Object.keys(otherText).sort()).toEqual(Object.keys(textShape).sort());
    for (const [field, value] of Object.entries(otherText)) {
      const p = page();
      (p.texts[0] as unknown as Record<string, unknown>)[field] = value;
      expect(snapshotDigest(p), field).not.toBe(base);
    }
    // One option relabelled in the middle, a state swapped for another of the same length.
    const withOptions = () => {
      const p = page();
      p.elements[1]!.options = ['Viewer', 'Editor'];
      p.elements[1]!.states = ['checked'];
      return p;
    };
    const optionsBase = snapshotDigest(withOptions());
    const relabelled = withOptions();
    relabelled.elements[1]!.options = ['Viewer', 'Edxtor'];
    expect(snapshotDigest(relabelled)).not.toBe(optionsBase);
    const restated = withOptions();
    restated.elements[1]!.states = ['pressed'];
    expect(snapshotDigest(restated)).not.toBe(optionsBase);
  });
});
