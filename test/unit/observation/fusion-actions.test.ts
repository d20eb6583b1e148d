import { describe, expect, it } from 'vitest';
import { summarizeScreenshot } from '../../../src/observation/fusion/index.ts';
import type { SnapshotElement } from '../../../src/protocol/snapshot.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { blankSnapshot, element, expectValid, fuse } from './fixtures/fusion-helpers.ts';

const el = (ref: string, name: string, extra: Partial<SnapshotElement> = {}) => element(ref, 'button', name, extra);

describe('legacy actions and element visibility', () => {
  const snapshot = blankSnapshot({
    url: 'https://shop.test/orders/A-1',
    texts: [{ text: 'Order A-1', role: 'heading', level: 1 }, { text: 'Status: Paid' }],
    elements: [
      el('v1', 'Save'),
      el('o1', 'Delete account', { visibility: 'offscreen' }),
      el('h1', 'Secret admin', { visibility: 'hidden' }),
      el('c1', 'Buy now', { visibility: 'covered' }),
      el('z1', 'Ghost', { visibility: 'zero_size' }),
      el('d1', 'Submit', { states: ['disabled'] }),
      el('t1', 'Notes', { role: 'textbox', tag: 'textarea' }),
      el('p1', 'Password', { role: 'textbox', tag: 'input', inputType: 'password' }),
      el('m1', 'More options', { states: ['collapsed'] }),
      el('k1', 'Gift wrap', { role: 'checkbox', tag: 'input', inputType: 'checkbox', formRef: 'f1' }),
      el('l1', 'Log out', { role: 'link', tag: 'a', href: 'https://shop.test/logout' }),
      el('a1', 'Sale!', { role: 'link', tag: 'a', href: 'https://ads.example/x?id=1' }),
      el('l2', 'Help', { role: 'link', tag: 'a', href: 'https://shop.test/help' }),
      el('j1', 'Details', { role: 'link', tag: 'a', href: 'javascript:void(0)' }),
      el('s1', 'Dark mode', { role: 'switch', tag: 'a', href: 'https://tracker.example/on' }),
      el('m2', 'More', { role: 'button', tag: 'a', states: ['collapsed'], href: 'https://other.example/' }),
    ],
    forms: [{ ref: 'f1', method: 'post', action: 'https://shop.test/orders/A-1', fieldRefs: ['k1'] }],
  });
  const s = expectValid(fuse({ snapshot }));
  const on = (ref: string) => s.actions?.filter((a) => a.target_ref === ref) ?? [];

  it('offers only visible, enabled controls; one Steward marks unreachable (offscreen) is offered neither a click nor a scroll to it', () => {
    expect(on('v1').map((a) => a.action)).toEqual(['dom.click']);
    // Covered with no cover named (clipped away, say): not offered. (Named covers: dom-actions-primitives.test.ts.)
    for (const ref of ['o1', 'h1', 'c1', 'z1', 'd1']) expect(on(ref), ref).toEqual([]);
    // Scrolling the page stays offered: a control below the fold is visible and reachable by it.
    expect(s.actions?.find((a) => a.action === 'dom.scroll' && a.target_ref === undefined)).toMatchObject({ title: 'Scroll the page' });
  });

  it('a control below the fold is visible: it keeps dom.click, and the page scroll reaches it', () => {
    const below = expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://shop.test/', elements: [el('b1', 'Load more', { box: { x: 10, y: 2900, w: 100, h: 30 } })] }) }));
    expect(below.actions?.filter((a) => a.target_ref === 'b1').map((a) => a.action)).toEqual(['dom.click']);
    expect(below.available_actions).toContain('dom.scroll');
  });

  it('names each kind of unusable control as a conflict, and still lists every element', () => {
    expect(s.conflicts).toEqual(expect.arrayContaining(['offscreen_interactive_elements', 'hidden_interactive_elements', 'covered_interactive_elements', 'zero_size_interactive_elements']));
    expect(s.elements?.map((e) => e.ref)).toEqual(snapshot.elements.map((e) => e.ref));
  });

  it('classifies risk from what a control is and says', () => {
    expect(on('t1')[0]).toMatchObject({ action: 'dom.type', read_only: true, requires_approval: false });
    expect(on('p1')[0]).toMatchObject({ action: 'dom.type', consequential: true, requires_approval: true });
    expect(on('m1')[0]).toMatchObject({ action: 'dom.click', read_only: true, requires_approval: false });
    expect(on('k1')[0]).toMatchObject({ action: 'dom.click', read_only: true });
    expect(on('l1')[0]).toMatchObject({ action: 'dom.click', read_only: false, consequential: true, requires_approval: true, description: 'link "Log out" to "/logout"' });
    expect(on('a1')[0]?.description).toBe('link "Sale!" to "https://ads.example/x?id=1"');
    expect(on('v1')[0]).toMatchObject({ read_only: false, requires_approval: true });
  });

  it('judges links and toggles by where they go: only a same-site http(s) link is read-only', () => {
    expect(on('l2')[0]).toMatchObject({ action: 'dom.click', read_only: true, requires_approval: false });
    expect(on('a1')[0]).toMatchObject({ action: 'dom.click', read_only: false, requires_approval: true });
    for (const ref of ['j1', 's1', 'm2']) expect(on(ref)[0], ref).toMatchObject({ action: 'dom.click', read_only: false, requires_approval: true });
    // The element summaries carry where each link goes, for Steward's own classification.
    expect(s.elements?.find((e) => e.ref === 'a1')?.href).toBe('https://ads.example/x?id=1');
  });
});

describe('WebMCP tools as actions', () => {
  const tool = (name: string, annotations: ToolDescriptor['annotations'], extra: Partial<ToolDescriptor> = {}): ToolDescriptor => ({
    name,
    description: `${name} tool`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    annotations,
    kind: 'imperative',
    ...extra,
  });
  const tools = [
    tool('list_doctors', { readOnlyHint: true }),
    tool('read_patient_messages', { readOnlyHint: true, untrustedContentHint: true }),
    tool('cancel_appointment', { readOnlyHint: false, consequentialHint: true }),
    tool('book_appointment', {}, { kind: 'declarative', autosubmit: true }),
    tool('pay_invoice', { readOnlyHint: true }),
    tool('broken', {}, { schemaError: 'input schema is not valid JSON' }),
    tool('has spaces', { readOnlyHint: true }),
    { name: '', description: 1 } as unknown as ToolDescriptor,
  ];
  const s = expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://clinic.test/' }), tools }));
  const action = (name: string) => s.actions?.find((a) => a.action === name);

  it('carries the page’s own risk hints, via webmcp, with the tool’s input schema', () => {
    expect(action('list_doctors')).toMatchObject({ via: 'webmcp', read_only: true, consequential: false, requires_approval: false, input_schema: tools[0]!.inputSchema });
    expect(action('read_patient_messages')).toMatchObject({ read_only: true, untrusted_content: true, requires_approval: false });
    expect(action('cancel_appointment')).toMatchObject({ read_only: false, consequential: true, requires_approval: true });
  });

  it('a missing hint never means safe, and money always needs approval', () => {
    expect(action('book_appointment')).toMatchObject({ read_only: false, requires_approval: true });
    expect(action('pay_invoice')).toMatchObject({ read_only: false, payment: true, consequential: true, requires_approval: true });
  });

  it('lists tools that cannot run without offering them, and reports what it refused', () => {
    expect(s.tools?.map((t) => t.name)).toEqual(['list_doctors', 'read_patient_messages', 'cancel_appointment', 'book_appointment', 'pay_invoice', 'broken', 'has spaces']);
    expect(action('broken')).toBeUndefined();
    expect(action('has spaces')).toBeUndefined();
    expect(s.conflicts).toEqual(expect.arrayContaining(['webmcp_tool_invalid', 'webmcp_tool_name_unaddressable']));
    expect(s.evidence).toContain('webmcp');
  });
});

describe('screenshot summary', () => {
  const pixels = (w: number, h: number, paint: (x: number, y: number) => [number, number, number]) => {
    const data = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const [r, g, b] = paint(x, y);
        data.set([r, g, b, 255], (y * w + x) * 4);
      }
    return data;
  };

  const blank400x300 = (paint: Parameters<typeof pixels>[2]) => summarizeScreenshot(pixels(400, 300, paint), 400, 300).blank;

  it('a uniform (or nearly uniform) capture is blank; a painted page is not', () => {
    expect(blank400x300(() => [255, 255, 255])).toBe(true);
    expect(blank400x300((x) => [250 + (x % 3), 255, 255])).toBe(true);
    expect(blank400x300((x, y) => (y > 40 && y < 60 && x < 200 ? [20, 20, 20] : [255, 255, 255]))).toBe(false);
  });

  it('a sparse page (one short dark line on white, 0.3% ink) is painted, not blank', () => {
    const line = (x: number, y: number) => (y >= 30 && y < 34 && x >= 20 && x < 110 ? [20, 20, 20] : [255, 255, 255]);
    expect(blank400x300((x, y) => line(x, y) as [number, number, number])).toBe(false);
  });

  it('a truncated buffer counts as blank rather than throwing', () => {
    expect(summarizeScreenshot(new Uint8ClampedArray(10), 400, 300)).toEqual({ width: 400, height: 300, blank: true });
  });
});
