import { describe, expect, it } from 'vitest';
import type { ElementSummary } from '../../../src/protocol/element.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { isShownLink } from '../../../src/base/shown-link.ts';
import { quietSinkReasons } from '../../../src/pipeline/policy/quiet-sinks.ts';
import { pageDerivedWords, pageTextOf } from '../../../src/pipeline/policy/copied-text.ts';
import { approvalReasons } from '../../../src/pipeline/policy/risk.ts';
import { controlKey, MemoryWrittenControls } from '../../../src/pipeline/written-controls.ts';

const el = (ref: string, role: string, name: string, extra: Partial<ElementSummary> = {}): ElementSummary => ({ ref, role, name, states: [], visibility: 'visible', ...extra });

function page(elements: ElementSummary[], extra: Partial<ObservedState> = {}): ObservedState {
  return {
    resource: { type: 'page', id: 'notes' },
    state: 'unknown',
    available_actions: [],
    source: 'dom',
    evidence: ['dom'],
    confidence: 0.8,
    conflicts: [],
    state_version: 'fp-1',
    observed_at: '2026-12-06T06:00:00.000Z',
    url: 'http://lab.test/account?tab=notes',
    title: 'Your account',
    elements,
    ...extra,
  } as ObservedState;
}

const account = page(
  [
    el('e1', 'link', 'Orders', { href: 'http://lab.test/orders' }),
    el('e2', 'link', 'Help', { href: '/help?topic=billing' }),
    el('e3', 'link', 'Secret', { href: 'http://lab.test/cancel?id=7001', visibility: 'hidden' }),
    el('e4', 'textbox', 'Notes', { states: ['editable', 'reactive'] }),
    el('e5', 'searchbox', 'Search', { states: ['editable', 'reactive'] }),
    el('e6', 'textbox', 'Name', { states: ['editable'] }),
  ],
  { facts: [{ name: 'account_number', value: 'ACC-449277', sources: ['dom'], confidence: 0.9 }] },
);

describe('a link the page shows', () => {
  it('is exactly an href of a shown element or the page itself, resolved and normalised', () => {
    expect(isShownLink('http://lab.test/orders', account)).toBe(true);
    expect(isShownLink('HTTP://LAB.TEST:80/orders', account)).toBe(true);
    expect(isShownLink('http://lab.test/help?topic=billing', account)).toBe(true);
    expect(isShownLink('http://lab.test/account?tab=notes', account)).toBe(true);
    expect(isShownLink('http://other.test/', account)).toBe(true); // a bare home page carries nothing
    expect(isShownLink('http://other.test/?d=1', account)).toBe(false);
  });
  it('is not one with data added: a query, a changed value, a fragment, a longer path', () => {
    expect(isShownLink('http://lab.test/orders?d=ACC-449277', account)).toBe(false);
    expect(isShownLink('http://lab.test/help?topic=ACC-449277', account)).toBe(false);
    expect(isShownLink('http://lab.test/orders#ACC-449277', account)).toBe(false);
    expect(isShownLink('http://lab.test/orders/ACC-449277', account)).toBe(false);
  });
  it('is not a hidden link, nor an address the agent composed', () => {
    expect(isShownLink('http://lab.test/cancel?id=7001', account)).toBe(false);
    expect(isShownLink('http://other.test/?d=1', account)).toBe(false);
    expect(isShownLink('javascript:alert(1)', account)).toBe(false);
  });
});

describe('text taken from the page', () => {
  const text = pageTextOf(account, 'e4');
  it('is a distinctive word the page shows: an id, a number, a long word', () => {
    expect(pageDerivedWords('my number is ACC-449277', text)).toEqual(['acc-449277']);
    expect(pageDerivedWords('449277', pageTextOf(page([el('e1', 'generic', 'Ref 449277')])))).toEqual(['449277']);
    expect(pageDerivedWords('see billing overdue', pageTextOf(page([el('e1', 'link', 'Billing', { href: 'http://lab.test/billing' }), el('e2', 'generic', 'Overdue since May')])))).toEqual([
      'billing',
      'overdue',
    ]);
    expect(pageDerivedWords('remember correcthorsebattery', pageTextOf(page([el('e1', 'generic', 'Your phrase: correcthorsebattery')])))).toEqual(['correcthorsebattery']);
  });
  it("does not take one of the site's own words for a copied fact", () => {
    // "Where is my parcel?" on "Parcel & Co": one plain word shared with the page proves nothing.
    expect(pageDerivedWords('Where is my parcel?', pageTextOf(page([el('e1', 'heading', 'Parcel & Co')])))).toEqual([]);
  });
  it('is not a short or common word, nor a word the page does not show', () => {
    expect(pageDerivedWords('red shoes', pageTextOf(page([el('e1', 'heading', 'Red shoes on sale')])))).toEqual([]);
    expect(pageDerivedWords('trail running shoes', pageTextOf(page([el('e1', 'link', 'Trail Runner 3')])))).toEqual([]);
  });
  it("subtracts the person's own words", () => {
    const shop = pageTextOf(page([el('e1', 'link', 'Wireless headphones')]));
    expect(pageDerivedWords('wireless headphones', shop)).toEqual(['wireless', 'headphones']);
    expect(pageDerivedWords('wireless headphones', shop, 'Search the shop for wireless headphones')).toEqual([]);
  });
  it("does not count the target field's own value (the agent's earlier text)", () => {
    const typed = page([el('e4', 'textbox', 'Notes', { value: 'remember marigold' })]);
    expect(pageDerivedWords('remember marigold', pageTextOf(typed, 'e4'))).toEqual([]);
    expect(pageDerivedWords('remember marigold', pageTextOf(typed))).toEqual(['remember', 'marigold']);
  });
  it('reads words with their joiners', () => {
    // An address and an id are one word each, without the sentence's punctuation around them.
    expect(pageDerivedWords('Mail alice@example.com, order ORD-7001.', ['Contact: alice@example.com (order ORD-7001)'])).toEqual(['alice@example.com', 'ord-7001']);
    expect(pageDerivedWords('Mail alice@example.com', ['Contact: alice@example.org'])).toEqual([]);
  });
});

describe('quiet sinks of a tainted agent', () => {
  const reasons = (action: string, input: Record<string, unknown>, target?: ElementSummary, person_words?: string, tainted = true) =>
    quietSinkReasons({ action, input, observed: account, ...(target ? { target } : {}), tainted, ...(person_words ? { person_words } : {}) });

  it('hold a composed URL, with the full URL on the card', () => {
    const url = 'http://lab.test/cancel?id=7001&acct=ACC-449277';
    const r = reasons('nav.goto', { url });
    expect(r).toHaveLength(1);
    expect(r[0]!.detail).toContain(url);
  });
  it('let a shown link, or a URL the person typed, through', () => {
    expect(reasons('nav.goto', { url: 'http://lab.test/orders' })).toEqual([]);
    expect(reasons('nav.goto', { url: 'http://lab.test/reports/2026' }, undefined, 'open http://lab.test/reports/2026 please')).toEqual([]);
  });
  it('hold copied page text, with the text on the card', () => {
    const r = reasons('dom.type', { ref: 'e6', text: 'ACC-449277' }, account.elements![5]);
    expect(r.map((x) => x.code)).toEqual(['untrusted_input']);
    expect(r[0]!.detail).toContain('ACC-449277');
  });
  it('hold typing into a field that reacts to every edit, but not a search box', () => {
    expect(reasons('dom.type', { ref: 'e4', text: 'hello' }, account.elements![3]).map((x) => x.code)).toEqual(['not_read_only']);
    expect(reasons('dom.type', { ref: 'e5', text: 'hello' }, account.elements![4])).toEqual([]);
    expect(reasons('dom.type', { ref: 'e6', text: 'hello' }, account.elements![5])).toEqual([]);
  });
  it("let the person's words into a plain field through", () => {
    expect(reasons('dom.type', { ref: 'e6', text: 'wireless headphones' }, account.elements![5], 'find wireless headphones')).toEqual([]);
  });
  it("let the person's own words into a field that reacts to each edit (an autocomplete), but not words they did not ask for", () => {
    expect(reasons('dom.type', { ref: 'e4', text: 'Li' }, account.elements![3], 'Type "Li" into City and choose Lisbon')).toEqual([]);
    expect(reasons('dom.type', { ref: 'e4', text: 'see you at the cafe' }, account.elements![3], 'Type "Li" into City and choose Lisbon').map((r) => r.code)).toEqual(['not_read_only']);
  });
  it('say nothing for an agent no page content has reached', () => {
    expect(reasons('nav.goto', { url: 'http://lab.test/cancel?id=7001' }, undefined, undefined, false)).toEqual([]);
    expect(reasons('dom.type', { ref: 'e4', text: 'ACC-449277' }, account.elements![3], undefined, false)).toEqual([]);
  });
  it('turn a read-only primitive into one that needs approval, marked untrusted', () => {
    const extra = reasons('nav.goto', { url: 'http://lab.test/cancel?id=7001' });
    const description = {
      action: 'nav.goto',
      via: 'legacy_inference',
      read_only: true,
      consequential: false,
      payment: false,
      untrusted_content: false,
      requires_approval: false,
      input_schema: { type: 'object' },
    } as const;
    const dom = { read_only: true, consequential: false, payment: false, reasons: [] };
    expect(approvalReasons(description, { untrusted_input: false, tainted: true, dom })).toEqual([]);
    expect(approvalReasons(description, { untrusted_input: false, tainted: true, dom, extra }).map((r) => r.code)).toEqual(['not_read_only', 'untrusted_input']);
  });
});

describe('controls that wrote', () => {
  it('are named by role, name, form and destination, not by ref', () => {
    const a = page([el('e4', 'button', 'Mark as read')], { forms: [{ ref: 'f1', name: 'Inbox', fields: [], submit_ref: 'e4' }] });
    const b = page([el('e99', 'button', 'Mark  as read')], { forms: [{ ref: 'f7', name: 'Inbox', fields: [], submit_ref: 'e99' }] });
    expect(controlKey(a.elements![0]!, a)).toBe(controlKey(b.elements![0]!, b));
    expect(controlKey(el('e1', 'link', 'Go', { href: 'http://lab.test/a?x=1' }), page([]))).not.toBe(controlKey(el('e1', 'link', 'Go', { href: 'http://lab.test/b' }), page([])));
  });
  it('are remembered per site', async () => {
    const memory = new MemoryWrittenControls();
    await memory.remember({ origin: 'http://lab.test', control: 'button|mark as read||', label: 'button “Mark as read”', request: { method: 'POST', url: 'http://lab.test/read' }, at: 1 });
    expect(await memory.find('http://lab.test', 'button|mark as read||')).toBeDefined();
    expect(await memory.find('http://other.test', 'button|mark as read||')).toBeUndefined();
  });
});
