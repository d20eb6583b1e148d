import { describe, expect, it } from 'vitest';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';
import { dataNonce } from '../../../src/agent/prompt.ts';
import { element } from '../observation/fixtures/fusion-helpers.ts';
import { FakeShop, ScriptedModel, act, done, drain, portsFor, read } from './fakes.ts';

const GOAL = 'Cancel order ORD-1024';
const settings = { run_id: 'run_r' };
const nonce = dataNonce('run_r');

const snapshot: PageSnapshot = {
  url: 'http://localhost:4100/orders/ORD-1024',
  title: 'Order ORD-1024',
  capturedAt: '2026-01-01T00:00:00Z',
  elements: [
    element('e1', 'link', 'Your orders', { tag: 'a', href: 'http://localhost:4100/', order: 0 }),
    element('e4', 'combobox', 'Reason for cancelling', { tag: 'select', options: ['Choose a reason…', 'Changed my mind'], formRef: 'f2', order: 1 }),
    element('e5', 'button', 'Cancel order', { formRef: 'f2', order: 2 }),
  ],
  texts: [{ text: 'Paid on 2 January', order: 3 }],
  forms: [{ ref: 'f2', method: 'post', action: 'http://localhost:4100/orders/ORD-1024/cancel', fieldRefs: ['e4', 'e5'], submitRef: 'e5' }],
  structuredData: [],
  canvases: [],
  stats: { nodes: 40, interactive: 3, hidden: 0, iframesSkipped: 0, shadowRoots: 0 },
  blindSpots: [],
};

function shopWithSnapshot(): FakeShop {
  const shop = new FakeShop();
  shop.snapshot = snapshot;
  return shop;
}

/** The data block a read's result is shown in, in the prompt after it. */
const foundBlock = (prompt: string) => new RegExp(`found:\\n<data kind="read" id="${nonce}">\\n(".*")\\n</data id="${nonce}">`).exec(prompt)?.[1];

describe('the model reads what the page rendering collapsed, and nothing changes', () => {
  it('expands one ref in full and shows it to the model as page data in the next prompt', async () => {
    const shop = shopWithSnapshot();
    const model = new ScriptedModel([read({ ref: 'f2' }), done()]);
    const { steps } = await drain(GOAL, settings, portsFor(shop, model));
    expect(shop.submitted).toEqual([]);
    expect(steps[0]!.entry).toMatchObject({ n: 1, step: { kind: 'read', ref: 'f2' } });
    const second = model.prompts[1]![1]!.content;
    expect(second).toContain('step 1 [order ORD-1024 · paid @ fp-100001] read ref f2');
    const found = JSON.parse(foundBlock(second)!) as string;
    expect(found).toContain('e4 combobox "Reason for cancelling"');
    expect(found).toContain('e5 button "Cancel order"');
  });

  it('finds elements by role, name or text', async () => {
    const shop = shopWithSnapshot();
    const model = new ScriptedModel([read({ query: { role: 'button' } }), read({ query: { text: 'paid on' } }), done()]);
    const { steps } = await drain(GOAL, settings, portsFor(shop, model));
    expect(steps[0]!.entry.outcome).toBe('1 element(s) match\ne5 button "Cancel order"');
    expect(steps[1]!.entry.outcome).toContain('Paid on 2 January');
  });

  it('says so when nothing matches, when the ref is unknown, and when there is no snapshot', async () => {
    const model = new ScriptedModel([read({ ref: 'e99' }), read({ query: { name: 'refund' } }), done()]);
    const { steps } = await drain(GOAL, settings, portsFor(shopWithSnapshot(), model));
    expect(steps.map((s) => s.entry.outcome)).toEqual(['nothing on the page has ref "e99"', 'nothing on the page matches {"name":"refund"}']);

    const bare = await drain(GOAL, settings, portsFor(new FakeShop(), new ScriptedModel([read({ ref: 'e5' }), done()])));
    expect(bare.steps[0]!.entry.outcome).toMatch(/^no snapshot to read/);
  });

  it('keeps what a read returns bounded', async () => {
    const shop = shopWithSnapshot();
    shop.snapshot = { ...snapshot, texts: Array.from({ length: 400 }, (_, i) => ({ text: `line ${i} ${'x'.repeat(200)}`, order: 10 + i })) };
    const { steps } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([read({ query: { text: 'line' } }), done()])));
    expect(steps[0]!.entry.outcome!.length).toBeLessThanOrEqual(2000);
  });

  it('asks again when a read names both a ref and a query, or neither', async () => {
    const model = new ScriptedModel([
      { kind: 'read', thought: 'x', ref: 'e5', query: { role: 'button' } },
      { kind: 'read', thought: 'x' },
      { kind: 'read', thought: 'x', query: {} },
      read({ ref: 'e5' }),
      done(),
    ]);
    const { steps } = await drain(GOAL, settings, portsFor(shopWithSnapshot(), model));
    expect(model.prompts[1]!.at(-1)!.content).toContain('A read needs exactly one of "ref" or "query".');
    expect(steps[0]!.entry).toMatchObject({ outcome: 'A read needs exactly one of "ref" or "query".' });
    expect(model.prompts[3]!.at(-1)!.content).toContain('A read query needs at least one of "role", "name" or "text".');
    expect(steps[1]!.entry.step).toMatchObject({ kind: 'read', ref: 'e5' });
  });
});

describe('reads and the rails', () => {
  it('counts a read toward MAX_STEPS', async () => {
    const model = new ScriptedModel([read({ ref: 'e1' }), read({ ref: 'e4' }), read({ ref: 'e5' })]);
    const { steps, end } = await drain(GOAL, { ...settings, max_steps: 2 }, portsFor(shopWithSnapshot(), model));
    expect(steps).toHaveLength(2);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'max_steps' });
  });

  it('does not count a read as a step without state change', async () => {
    const shop = shopWithSnapshot();
    const model = new ScriptedModel([act('orders.track', { n: 1 }), read({ ref: 'e1' }), read({ ref: 'e4' }), read({ ref: 'e5' }), act('orders.track', { n: 2 }), done('It is on its way.')]);
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(steps).toHaveLength(5);
    expect(end).toMatchObject({ kind: 'done', claim: 'It is on its way.' });
  });

  it('stops and asks the person when the model reads the same thing a third time in a row', async () => {
    const model = new ScriptedModel([read({ ref: 'e5' }), read({ ref: 'e5' }), read({ ref: 'e5' })]);
    const { steps, end } = await drain(GOAL, settings, portsFor(shopWithSnapshot(), model));
    expect(steps).toHaveLength(2);
    expect(end).toEqual({
      kind: 'stopped',
      reason: 'stuck',
      detail: 'the model read ref e5 3 times in a row; please take a look',
      detail_said: { code: 'run_stuck_read', params: { target: 'ref e5', times: 3 } },
    });
  });

  it('allows 8 reads per run, then tells the model to act', async () => {
    const reads = Array.from({ length: 9 }, (_, i) => read({ query: { name: `item ${i}` } }));
    const { steps } = await drain(GOAL, settings, portsFor(shopWithSnapshot(), new ScriptedModel([...reads, done()])));
    expect(steps).toHaveLength(9);
    expect(steps[7]!.entry.outcome).toBe('nothing on the page matches {"name":"item 7"}');
    expect(steps[8]!.entry.outcome).toBe('read limit reached (8 per run): act, finish or ask the person');
  });

  it('counts the reads remembered before a restart', async () => {
    const resume = Array.from({ length: 8 }, (_, i) => ({ n: i + 1, state: 'order ORD-1024 · paid @ fp-100001', step: { kind: 'read' as const, thought: '', ref: `e${i}` }, outcome: '' }));
    const { steps } = await drain(GOAL, { ...settings, resume }, portsFor(shopWithSnapshot(), new ScriptedModel([read({ ref: 'e5' }), done()])));
    expect(steps[0]!.entry).toMatchObject({ n: 9, outcome: 'read limit reached (8 per run): act, finish or ask the person' });
  });
});
