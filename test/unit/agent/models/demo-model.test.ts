import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../../src/agent/models/create-model.ts';
import type { ChatMessage, Observation } from '../../../../src/agent/ports.ts';
import type { HistoryEntry } from '../../../../src/agent/history.ts';
import { buildPrompt } from '../../../../src/agent/prompt.ts';
import { parseStep, type Step } from '../../../../src/agent/step-schema.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shopAdapter } from '../../../../src/observation/adapters/index.ts';
import { fuse } from '../../observation/fixtures/fusion-helpers.ts';
import type { PageSnapshot } from '../../../../src/protocol/snapshot.ts';
import { resolveCapability } from '../../../../src/pipeline/capability.ts';
import type { ToolDescriptor } from '../../../../src/protocol/webmcp.ts';
import { renderSnapshot } from '../../../../src/observation/render/index.ts';
import { ObservedState } from '../../../../src/protocol/observed-state.ts';
import { startDemoModel } from '../../../../sites/model/demo-model.ts';
import type { ScriptedModel } from '../../../../sites/model/scripted-server.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';
import { drain, FakeShop } from '../fakes.ts';

/** The demo model behind the real OpenAI-compatible provider, fed prompts from the real prompt builder. */

let server: ScriptedModel;
let ask: (messages: ChatMessage[]) => Promise<Step>;
let complete: (messages: ChatMessage[]) => Promise<string>;
beforeAll(async () => {
  server = await startDemoModel();
  const model = createModel({ provider: 'openai', endpoint: server.url, model: 'steward-demo' }, { fetch });
  complete = (messages) => model.complete(messages);
  ask = async (messages) => {
    const parsed = parseStep(await model.complete(messages));
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.step;
  };
});
afterAll(() => server.stop());

const prompt = (goal: string, observation: Observation, history: HistoryEntry[] = []) => buildPrompt({ goal, nonce: 'n0nce1234567', history, observation });

function legacyShop(status: 'paid' | 'cancelled' = 'paid'): Observation {
  const snapshot = shopOrderSnapshot({ status });
  return { state: fuse({ snapshot }), rendering: renderSnapshot(snapshot), snapshot };
}

/** The demo shop's order page as Steward captured it, fused with the shop adapter (which offers orders.cancel). */
function capturedShop(): Observation {
  const page = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'observation', 'fixtures', 'demo-pages', 'shop-order.json'), 'utf8')) as {
    snapshot: PageSnapshot;
    tools: ToolDescriptor[];
  };
  const state = fuse({ snapshot: page.snapshot, tools: page.tools, adapters: [shopAdapter()] });
  return { state, rendering: renderSnapshot(page.snapshot, { observed: state, facts: state.facts ?? [], tools: state.tools ?? [] }), snapshot: page.snapshot };
}

const CONFIRMED = JSON.stringify({ action_id: 'act_1', execution: { certainty: 'confirmed', status: 'confirmed' }, resource: { id: 'ORD-1024', state: 'cancelled', type: 'order' } });

function clinic(): Observation {
  const state = ObservedState.parse({
    resource: { type: 'page', id: 'clinic' },
    state: 'ready',
    available_actions: ['book_appointment', 'find_open_slots'],
    source: 'webmcp',
    evidence: ['webmcp'],
    confidence: 0.9,
    conflicts: [],
    state_version: 'fp-c0ffee',
    observed_at: '2026-01-01T00:00:00.000Z',
    url: 'http://localhost:4200/',
    actions: [
      {
        action: 'book_appointment',
        via: 'webmcp',
        description: 'Book a 30-minute appointment at Riverside Family Clinic for a patient.',
        read_only: false,
        consequential: true,
        requires_approval: true,
        input_schema: {
          type: 'object',
          properties: {
            doctor: { type: 'string', enum: ['dr-okafor', 'dr-lindqvist', 'dr-moreau', 'dr-tanaka'] },
            date: { type: 'string', format: 'date' },
            time: { type: 'string', enum: ['09:00', '09:30', '10:00'] },
            patient_name: { type: 'string' },
          },
          required: ['doctor', 'date', 'time', 'patient_name'],
        },
      },
      { action: 'find_open_slots', via: 'webmcp', read_only: true, consequential: false, requires_approval: false, input_schema: { type: 'object' } },
    ],
  });
  return { state, rendering: '# Book an appointment' };
}

describe('the demo model (scripted replies over the real prompt)', () => {
  it('cancels through the site action when there is one (an adapter here)', async () => {
    const step = await ask(prompt('cancel order ORD-1024', new FakeShop().observation()));
    expect(step).toMatchObject({ kind: 'act', action: { name: 'orders.cancel' } });
  });

  it('on the demo shop’s order page: the adapter’s one-step orders.cancel, with a reason from the goal the adapter accepts', async () => {
    const page = capturedShop();
    const mistake = await ask(prompt('Cancel order ORD-1024, I ordered it by mistake.', page));
    expect(mistake).toMatchObject({ kind: 'act', action: { name: 'orders.cancel', input: { reason: 'ordered_by_mistake' } } });
    const plain = await ask(prompt('cancel order ORD-1024', page));
    expect(plain).toMatchObject({ kind: 'act', action: { name: 'orders.cancel', input: { reason: 'other' } } });
    // The pipeline's capability check takes it on the adapter's path, its input valid for the adapter's schema.
    if (mistake.kind !== 'act') throw new Error('expected an act step');
    const request = { action: mistake.action.name, resource: page.state.resource, input: mistake.action.input, idempotency_key: 'demo-cancel-1' };
    const cap = resolveCapability(request, page.state, { adapter: { execute: () => Promise.reject(new Error('not run here')) } });
    expect(cap).toMatchObject({ ok: true, capability: { description: { action: 'orders.cancel', via: 'adapter', requires_approval: true } } });
  });

  it('on a plain page: picks a reason, then presses the "Cancel order" button by its ref', async () => {
    const page = legacyShop();
    const first = await ask(prompt('Cancel order ORD-1024', page));
    expect(first).toMatchObject({ kind: 'act', action: { name: 'dom.select', input: { ref: 'e21', values: ['Other'] } } });
    const history: HistoryEntry[] = [{ n: 1, state: 'order ORD-1024 · paid @ fp-1', step: first, outcome: JSON.stringify({ execution: { status: 'confirmed' } }) }];
    const second = await ask(prompt('Cancel order ORD-1024', page, history));
    expect(second).toMatchObject({ kind: 'act', action: { name: 'dom.click', input: { ref: 'e22' } } });
  });

  it('says done after the cancellation is confirmed, and asks the person when it failed', async () => {
    const cancelStep = await ask(prompt('cancel order ORD-1024', new FakeShop().observation()));
    const after = (outcome: string) => prompt('cancel order ORD-1024', new FakeShop().observation(), [{ n: 1, state: 'order ORD-1024 · paid @ fp-1', step: cancelStep, outcome }]);
    expect(await ask(after(CONFIRMED))).toMatchObject({ kind: 'done', claim: expect.stringContaining('ORD-1024') as string });
    const refused = JSON.stringify({ action_id: 'act_1', error: { code: 'APPROVAL_DENIED', message: 'The person declined.' } });
    expect(await ask(after(refused))).toMatchObject({ kind: 'ask_person' });
  });

  it('books on the clinic with the booking tool, filled from the goal', async () => {
    const step = await ask(prompt('Book an appointment with Dr. Okafor on 2026-12-07 at 9:30 for Jordan Lee', clinic()));
    expect(step).toMatchObject({ kind: 'act', action: { name: 'book_appointment', input: { doctor: 'dr-okafor', date: '2026-12-07', time: '09:30', patient_name: 'Jordan Lee' } } });
  });

  it('asks for what the goal leaves out of a booking', async () => {
    const step = await ask(prompt('book an appointment', clinic()));
    expect(step).toMatchObject({ kind: 'ask_person', question: expect.stringContaining('date') as string });
  });

  it('for any other goal, says it is a demo model', async () => {
    const step = await ask(prompt('find me a cheaper grinder', legacyShop()));
    expect(step).toMatchObject({ kind: 'ask_person', question: expect.stringContaining('demo model') as string });
  });

  it('drives the real loop to a verified done on a shop, cancelling once', async () => {
    const shop = new FakeShop();
    const { steps, end } = await drain(
      'cancel order ORD-1024',
      { run_id: 'run_demo' },
      { observe: () => Promise.resolve(shop.observation()), complete, submit: (r) => Promise.resolve(shop.submit(r)), clock: () => 0 },
    );
    expect(shop.executed).toEqual(['orders.cancel']);
    expect(steps.map((s) => s.entry.step?.kind)).toEqual(['act']);
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });
});
