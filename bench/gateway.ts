// fake-indexeddb stands in for the service worker's IndexedDB; idb checks values against its globals.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { pathToFileURL } from 'node:url';
import { BenchRow } from './bench-row.ts';
import type { ObservedState } from '../src/protocol/observed-state.ts';
import { isErrorResult } from '../src/protocol/results.ts';
import { openPipeline } from '../src/pipeline/create.ts';
import { inputHash } from '../src/base/hash.ts';
import type { PipelinePorts } from '../src/pipeline/ports.ts';
import { action } from '../test/unit/pipeline/fakes.ts';
import { openStewardDb } from '../src/storage/db.ts';

/** Nearest-rank percentile of a non-empty sample. */
function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) throw new RangeError('percentile of an empty sample');
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/**
 * `gateway.overhead_p50_ms` / `_p95_ms` (DESIGN §10): the pipeline's own time per action —
 * parsing, token, idempotency, journal, policy, receipt, verification, audit chain, memory, all
 * on (fake) IndexedDB — excluding the time spent in ports (observing, the site executing) and
 * waiting for a person. The ports here answer at once, so what is measured is Steward alone.
 */

const ORIGIN = 'http://localhost:4100';
const RESOURCE = { type: 'order', id: 'ORD-1024' };

function world() {
  const order = { state: 'awaiting_payment', version: 17 };

  const observe = (): ObservedState => ({
    resource: RESOURCE,
    state: order.state,
    available_actions: ['orders.view', 'orders.cancel'],
    source: 'adapter',
    evidence: ['dom', 'adapter'],
    confidence: 0.95,
    conflicts: [],
    state_version: `fp-${(0x100000 + order.version).toString(16)}`,
    observed_at: '2026-08-03T11:40:00Z',
    url: `${ORIGIN}/orders/ORD-1024`,
    actions: [
      action({ action: 'orders.view', read_only: true, requires_approval: false }),
      action({ action: 'orders.cancel', consequential: true, input_schema: { type: 'object', properties: { reason: { type: 'string' } } } }),
    ],
  });
  const ports: PipelinePorts = {
    observe: async () => observe(),
    navigate: async () => undefined,
    executors: {
      adapter: {
        execute: async (call) => {
          if (call.action === 'orders.cancel') {
            order.state = 'cancelled';
            order.version++;
            return { outcome: 'completed', expect: { state: 'cancelled' } };
          }
          return { outcome: 'completed' };
        },
      },
    },
  };
  const reset = () => {
    order.state = 'awaiting_payment';
    order.version = 17;
  };
  return { ports, observe, reset };
}

export interface GatewayBenchOptions {
  /** Measured actions per case. */
  n?: number;
  /** Unmeasured actions first (JIT, caches). */
  warmup?: number;
}

export async function runGatewayBench(opts: GatewayBenchOptions = {}): Promise<BenchRow[]> {
  const n = opts.n ?? 200;
  const warmup = opts.warmup ?? 30;
  const w = world();
  const db = await openStewardDb({ factory: new IDBFactory() });
  const pipeline = await openPipeline({ openDb: async () => db, ports: w.ports, limits: () => ({ per_minute: 1e9, per_day: 1e9 }) });
  const { token, secret } = await pipeline.deps.tokens.mint({ agent_id: 'agent:bench', scope: ['orders:*'], resource_scope: 'order:*', origins: [ORIGIN], ttl_ms: 24 * 3600_000 });
  const agent = { agent_id: 'agent:bench', token: secret, session_id: 'bench' };

  const samples = { read_only: [] as number[], consequential_preapproved: [] as number[] };
  for (let i = 0; i < warmup + n; i++) {
    const out = await pipeline.submitDetailed({ action: 'orders.view', resource: RESOURCE, idempotency_key: `view_${i}` }, agent);
    if (isErrorResult(out.result)) throw new Error(`read_only run failed: ${out.result.error.message}`);
    if (i >= warmup) samples.read_only.push(out.timings.overhead_ms);
  }

  const input = { reason: 'ordered_by_mistake' };
  const hash = await inputHash(input);
  for (let i = 0; i < warmup + n; i++) {
    // Outside the measurement: the order is back to cancellable and the person has approved this exact action.
    w.reset();
    const observed = w.observe();
    const request = { action: 'orders.cancel', resource: RESOURCE, input, idempotency_key: `cancel_${i}` };
    const card = await pipeline.deps.approvals.enqueue({
      action_id: `act_pre${i}`,
      agent_id: agent.agent_id,
      token_id: token.token_id,
      origin: ORIGIN,
      // The card names the resource of the site it is on, as the runner pins it.
      request: { ...request, resource: { ...RESOURCE, origin: ORIGIN }, input } as never,
      via: 'adapter',
      input_hash: hash,
      observed,
      reasons: [{ code: 'consequential' }],
    });
    const decided = await pipeline.deps.approvals.decide({
      request_id: card.request_id,
      decision: 'approve',
      decided_by: 'user:local',
      decided_at: new Date().toISOString(),
      input_hash: hash,
      state_version: observed.state_version,
    });
    if (!decided.ok || decided.status !== 'approved') throw new Error('pre-approval failed');
    const out = await pipeline.submitDetailed({ ...request, approval: { receipt_id: decided.receipt.receipt_id } }, agent);
    if (isErrorResult(out.result) || out.result.execution.status !== 'confirmed') throw new Error(`consequential run failed: ${JSON.stringify(out.result)}`);
    if (i >= warmup) samples.consequential_preapproved.push(out.timings.overhead_ms);
  }
  db.close();

  const rows: BenchRow[] = [];
  for (const [c, sample] of Object.entries(samples)) {
    rows.push({ metric: 'gateway.overhead_p50_ms', case: c, value: round(percentile(sample, 50)), unit: 'ms', better: 'lower' });
    rows.push({ metric: 'gateway.overhead_p95_ms', case: c, value: round(percentile(sample, 95)), unit: 'ms', better: 'lower' });
  }
  return rows.map((r) => BenchRow.parse(r));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

// `npx tsx bench/gateway.ts` prints the rows on their own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runGatewayBench().then(
    (rows) => console.table(rows),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
