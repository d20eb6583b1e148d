import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shopAdapter } from '../../../src/observation/adapters/index.ts';
import { fuse } from '../observation/fixtures/fusion-helpers.ts';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';
import { openPipeline } from '../../../src/pipeline/create.ts';
import type { ExecutionCall, PipelinePorts } from '../../../src/pipeline/ports.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { FakeClock, freshFactory, openDb } from '../storage/helpers.ts';
import { approve, FakePanel, ORDER, type Harness } from './fakes.ts';

/**
 * Issue 13's "cancel an order with one approval" on the legacy shop's order page as Steward
 * fuses it (the captured demo page, with the shop adapter): choosing the reason is a form edit,
 * the "Cancel order" submit is the one card, and that card shows the reason it would send.
 */

const page = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'observation', 'fixtures', 'demo-pages', 'shop-order.json'), 'utf8')) as { snapshot: PageSnapshot; tools: ToolDescriptor[] };
const SHOP = new URL(page.snapshot.url).origin;

/** The order page behind the pipeline's ports: the DOM executor changes the snapshot the next observation fuses. */
function shopPage() {
  const snapshot = structuredClone(page.snapshot);
  const executed: ExecutionCall[] = [];
  const ports: PipelinePorts = {
    observe: () => Promise.resolve(fuse({ snapshot, tools: page.tools, adapters: [shopAdapter()] })),
    navigate: () => Promise.resolve(),
    routes: () => Promise.resolve([]),
    executors: {
      legacy_inference: {
        execute: (call) => {
          executed.push(call);
          const input = call.input as { ref: string; values?: string[] };
          const element = snapshot.elements.find((e) => e.ref === input.ref)!;
          if (call.action === 'dom.select') element.value = input.values![0]!;
          return Promise.resolve({ outcome: 'completed' });
        },
      },
    },
  };
  return { ports, executed };
}

async function copilot(tainted: boolean) {
  const shop = shopPage();
  const panel = new FakePanel();
  const clock = new FakeClock();
  const db = await openDb(freshFactory());
  const pipeline = await openPipeline({ openDb: async () => db, ports: shop.ports, notifier: panel, clock: clock.now });
  const { secret } = await pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:*', 'dom:*', 'nav:goto'], resource_scope: 'order:ORD-1024', origins: [SHOP], ttl_ms: 60 * 60_000 });
  // The co-pilot's agent has read the page before it asks for anything (run-ports.ts marks it so).
  if (tainted) await pipeline.deps.taint.mark('agent:copilot', { at: clock.now(), source: 'page content sent to the co-pilot’s model' });
  const agent = { agent_id: 'agent:copilot', token: secret, session_id: 's1' };
  const h = { pipeline, clock, panel } as unknown as Harness;
  return { shop, panel, pipeline, agent, h };
}

describe.each([true, false])('the DOM cancel of ORD-1024 on the legacy shop (agent tainted: %s)', (tainted) => {
  it('choosing the reason runs at once; the "Cancel order" submit is the only card, and it shows the chosen reason', async () => {
    const { shop, panel, pipeline, agent, h } = await copilot(tainted);
    const select = await pipeline.submit({ action: 'dom.select', resource: ORDER, input: { ref: 'e20', values: ['Ordered by mistake'] }, idempotency_key: 'reason-1' }, agent);
    expect(select).not.toHaveProperty('error');
    expect(panel.cards).toHaveLength(0);
    expect(shop.executed.map((c) => c.action)).toEqual(['dom.select']);

    const click = pipeline.submit({ action: 'dom.click', resource: ORDER, input: { ref: 'e21' }, idempotency_key: 'cancel-1' }, agent);
    const card = await panel.next();
    expect(card.action).toBe('dom.click');
    expect(card.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(['form_submission', 'risky_control', ...(tainted ? ['untrusted_input'] : [])]));
    expect(card.form?.fields).toContainEqual(expect.objectContaining({ ref: 'e20', value: 'Ordered by mistake' }));
    await approve(h, card);
    await click;
    expect(panel.cards).toHaveLength(1);
    const submitted = shop.executed.find((c) => c.action === 'dom.click');
    expect(submitted?.form).toContainEqual(expect.objectContaining({ ref: 'e20', value: 'Ordered by mistake' }));
  });
});
