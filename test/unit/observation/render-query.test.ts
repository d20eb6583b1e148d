import { describe, expect, it } from 'vitest';
import { expand, query } from '../../../src/observation/render/query.ts';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';
import { element } from './fixtures/fusion-helpers.ts';

const snap: PageSnapshot = {
  url: 'http://shop.test/orders/ORD-1',
  title: 'Order ORD-1',
  capturedAt: '2026-08-03T11:40:00Z',
  elements: [
    element('e1', 'link', 'Your orders', { tag: 'a', href: 'http://shop.test/', order: 0 }),
    element('e2', 'spinbutton', 'Quantity of Mug', { tag: 'input', inputType: 'number', value: '2', formRef: 'f1', container: { ref: 't1', row: 1 }, order: 2, box: { x: 10, y: 20, w: 72, h: 30 } }),
    element('e3', 'button', 'Update', { formRef: 'f1', container: { ref: 't1', row: 1 }, order: 3 }),
    element('e4', 'combobox', 'Reason for cancelling', { tag: 'select', options: ['Choose a reason…', 'Other'], formRef: 'f2', order: 5 }),
    element('e5', 'button', 'Cancel order', { formRef: 'f2', order: 6, visibility: 'covered' }),
  ],
  texts: [
    { text: 'Mug', role: 'cell', container: { ref: 't1', row: 1 }, order: 1 },
    { text: 'Awaiting payment', order: 4 },
  ],
  forms: [
    { ref: 'f1', method: 'post', action: 'http://shop.test/orders/ORD-1/items/MUG/quantity', fieldRefs: ['e2', 'e3'], submitRef: 'e3' },
    { ref: 'f2', method: 'post', action: 'http://shop.test/orders/ORD-1/cancel', fieldRefs: ['e4', 'e5'], submitRef: 'e5' },
  ],
  structuredData: [],
  canvases: [{ ref: 'c1', box: { x: 0, y: 0, w: 380, h: 160 }, hasTextEquivalent: false, pixelHash: 'px-0badf00d' }],
  stats: { nodes: 200, interactive: 5, hidden: 1, iframesSkipped: 0, shadowRoots: 0 },
  blindSpots: [],
  containers: [{ ref: 't1', role: 'table', rows: 1, columns: ['Item', 'Quantity'] }],
};

describe('query', () => {
  it('filters by role, name (case-insensitive substring), text, visibility, container and refs', () => {
    expect(query(snap, { role: 'BUTTON' }).elements.map((e) => e.ref)).toEqual(['e3', 'e5']);
    expect(query(snap, { name: 'cancel' }).elements.map((e) => e.ref)).toEqual(['e4', 'e5']);
    expect(query(snap, { text: '2' }).elements.map((e) => e.ref)).toEqual(['e2']);
    expect(query(snap, { text: 'awaiting' })).toMatchObject({ elements: [], texts: [{ text: 'Awaiting payment' }] });
    expect(query(snap, { visibility: 'covered' }).elements.map((e) => e.ref)).toEqual(['e5']);
    expect(query(snap, { container: 't1' }).elements.map((e) => e.ref)).toEqual(['e2', 'e3']);
    expect(query(snap, { refs: ['e3', 'e99'] })).toMatchObject({ elements: [{ ref: 'e3' }], missing: ['e99'], total: 1 });
  });

  it('pages with offset and limit and reports the total', () => {
    const r = query(snap, { offset: 1, limit: 2 });
    expect(r.total).toBe(5);
    expect(r.elements.map((e) => e.ref)).toEqual(['e2', 'e3']);
    expect(query(snap, { limit: 10_000 }).elements).toHaveLength(5);
  });
});

describe('expand', () => {
  it('shows one element in full, with its row and form', () => {
    const text = expand(snap, 'e2')!;
    expect(text).toContain('e2 spinbutton "Quantity of Mug" =2');
    expect(text).toContain('tag input type=number; scope document; box 10,20 72×30; form f1');
    expect(text).toContain('in t1 row 1: "Mug" · e2 spinbutton "Quantity of Mug" =2 · e3 button "Update"');
  });

  it('shows a container’s rows, a form’s fields, a canvas, and nothing for unknown refs', () => {
    expect(expand(snap, 't1')).toContain('table t1 — 1 rows');
    expect(expand(snap, 't1')).toContain('columns: "Item" | "Quantity"');
    const form = expand(snap, 'f2')!;
    expect(form).toContain('form f2 POST /orders/ORD-1/cancel');
    expect(form).toContain('e4 combobox "Reason for cancelling" options: "Choose a reason…" | "Other"');
    expect(form).toContain('e5 button "Cancel order" (covered)');
    expect(expand(snap, 'c1')).toContain('(no text equivalent) pixels px-0badf00d');
    expect(expand(snap, 'e404')).toBeUndefined();
  });
});
