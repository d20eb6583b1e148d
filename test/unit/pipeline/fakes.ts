import type { IDBFactory } from 'fake-indexeddb';
import type { AvailableAction } from '../../../src/protocol/action.ts';
import type { ApprovalRequest } from '../../../src/protocol/approval.ts';
import type { ElementSummary, FormSummary } from '../../../src/protocol/element.ts';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import type { ResourceRef, Source } from '../../../src/protocol/resource.ts';
import type { DelegatedAgentToken } from '../../../src/protocol/token.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { openPipeline, type OpenPipelineOptions } from '../../../src/pipeline/create.ts';
import { inputHash } from '../../../src/base/hash.ts';
import type { Pipeline } from '../../../src/pipeline/pipeline.ts';
import type { ApprovalNotifier, ExecutionCall, ExecutionReport, Executors, Location, PipelinePorts, PortContext, Route } from '../../../src/pipeline/ports.ts';
import type { StewardDb } from '../../../src/storage/db.ts';
import { FakeClock, freshFactory, openDb } from '../storage/helpers.ts';

export const ORIGIN = 'http://localhost:4100';
export const orderUrl = (id: string) => `${ORIGIN}/orders/${id}`;
export const ORDER: ResourceRef = { type: 'order', id: 'ORD-1024' };

interface Order {
  state: string;
  version: number;
  note: string;
}

const fp = (n: number) => `fp-${(0x100000 + n).toString(16)}`;

/** An AvailableAction with cautious defaults (needs approval), overridden by `a`. */
export const action = (a: Partial<AvailableAction> & Pick<AvailableAction, 'action'>): AvailableAction => ({
  via: 'adapter',
  read_only: false,
  consequential: false,
  payment: false,
  untrusted_content: false,
  requires_approval: true,
  input_schema: { type: 'object' },
  ...a,
});

/** A fake shop behind the pipeline's ports: orders with states, a working tab, a contract endpoint, executors. */
export class FakeShop {
  orders = new Map<string, Order>([
    ['ORD-1024', { state: 'awaiting_payment', version: 17, note: '' }],
    ['ORD-2048', { state: 'shipped', version: 3, note: '' }],
  ]);
  tabUrl: string | undefined = orderUrl('ORD-1024');
  /** The path that produces tab observations. */
  tabSource: Exclude<Source, 'site_contract'> = 'adapter';
  confidence = 0.9;
  tools: ToolDescriptor[] = [];
  routes: Route[] = [];
  calls = { observe: 0, navigate: [] as string[], execute: [] as ExecutionCall[] };
  /** Runs inside every executor before the effect (to inspect the journal, or hang to simulate a kill). */
  beforeEffect?: (call: ExecutionCall) => Promise<void> | void;
  /** Runs after the effect, before the executor returns. */
  afterEffect?: (call: ExecutionCall) => Promise<void> | void;
  /** Runs at the start of every observation. */
  beforeObserve?: (where: Location) => Promise<void> | void;
  executorOutcome?: (call: ExecutionCall) => ExecutionReport | undefined;

  observation(id: string, source: Source = this.tabSource, url = orderUrl(id)): ObservedState | null {
    const o = this.orders.get(id);
    if (!o) return null;
    const contract = source === 'site_contract';
    const actions: AvailableAction[] = [action({ action: 'orders.view', via: source, read_only: true, requires_approval: false })];
    if (o.state === 'awaiting_payment') {
      actions.push(
        action({
          action: 'orders.cancel',
          via: source,
          consequential: true,
          changes: ['order_cancelled'],
          input_schema: { type: 'object', properties: { reason: { type: 'string' } }, additionalProperties: false },
        }),
      );
      actions.push(action({ action: 'orders.pay', via: source, consequential: true, payment: true }));
    }
    if (o.state === 'shipped') actions.push(action({ action: 'orders.track', via: source, read_only: true, requires_approval: false }));
    const elements: ElementSummary[] = contract
      ? []
      : [
          { ref: 'e1', role: 'button', name: 'Cancel order', states: [], visibility: 'visible' },
          { ref: 'e2', role: 'link', name: 'Help', states: [], visibility: 'visible' },
          { ref: 'e3', role: 'textbox', name: 'Note', value: o.note, states: [], visibility: 'visible' },
          { ref: 'e4', role: 'textbox', name: 'Secret', states: [], visibility: 'hidden' },
          { ref: 'e5', role: 'button', name: 'Save', states: [], visibility: 'visible' },
          { ref: 'e6', role: 'button', name: 'Details', states: [], visibility: 'visible' },
          { ref: 'e7', role: 'textbox', name: 'Card number', states: [], visibility: 'visible' },
          { ref: 'e8', role: 'button', name: 'More', states: ['collapsed'], visibility: 'visible' },
        ];
    const forms: FormSummary[] = contract
      ? []
      : [
          {
            ref: 'f1',
            name: 'Notes',
            method: 'post',
            submit_ref: 'e5',
            fields: [
              { ref: 'e3', name: 'note', type: 'text', required: false, visibility: 'visible', value: o.note },
              { ref: 'e4', name: 'secret', type: 'text', required: false, visibility: 'hidden' },
            ],
          },
        ];
    const names = [...actions.map((a) => a.action), ...this.tools.map((t) => t.name)];
    return ObservedState.parse({
      resource: { type: 'order', id },
      state: o.state,
      available_actions: names,
      source,
      evidence: contract ? ['site_contract'] : ['dom', 'accessibility', 'adapter'],
      confidence: this.confidence,
      conflicts: [],
      state_version: contract ? o.version : fp(o.version),
      observed_at: '2026-08-03T11:40:00Z',
      url,
      elements,
      forms,
      tools: this.tools,
      actions,
    });
  }

  private applyCancel(id: string): void {
    const o = this.orders.get(id)!;
    o.state = 'cancelled';
    o.version++;
  }

  /** Someone else changes the order behind the agent's back. */
  ship(id: string): void {
    const o = this.orders.get(id)!;
    o.state = 'shipped';
    o.version += 4;
  }

  touch(id: string): void {
    this.orders.get(id)!.version++;
  }

  private async run(call: ExecutionCall, effect: () => ExecutionReport): Promise<ExecutionReport> {
    this.calls.execute.push(call);
    await this.beforeEffect?.(call);
    const override = this.executorOutcome?.(call);
    if (override) return override;
    const report = effect();
    await this.afterEffect?.(call);
    return report;
  }

  executors(): Executors {
    const cancel = (call: ExecutionCall) => this.applyCancel(call.resource.id);
    return {
      site_contract: {
        execute: (call) =>
          this.run(call, () => {
            if (call.action === 'orders.cancel') cancel(call);
            const o = this.orders.get(call.resource.id)!;
            return {
              outcome: 'confirmed',
              resource_state: { state: o.state, state_version: o.version },
              effects: call.action === 'orders.cancel' ? [{ type: 'order_cancelled', reversible: false }] : [],
            };
          }),
      },
      adapter: {
        execute: (call) =>
          this.run(call, () => {
            if (call.action === 'orders.cancel') {
              cancel(call);
              return { outcome: 'completed', expect: { state: 'cancelled' } };
            }
            return { outcome: 'completed' };
          }),
      },
      webmcp: {
        execute: (call) => this.run(call, () => ({ outcome: 'completed', output: { text: `ran ${call.action}`, truncated: false, untrusted: false } })),
      },
      legacy_inference: {
        execute: (call) =>
          this.run(call, () => {
            const input = call.input as { ref?: string; text?: string; url?: string };
            if (call.action === 'dom.click' && input.ref === 'e1') cancel(call);
            if (call.action === 'dom.type' && input.ref === 'e3') this.orders.get(call.resource.id)!.note += input.text ?? '';
            if (call.action === 'nav.goto' && input.url) this.tabUrl = input.url;
            return { outcome: 'completed' };
          }),
      },
    };
  }

  ports(): PipelinePorts {
    return {
      observe: async (where: Location, _resource: ResourceRef, _ctx: PortContext) => {
        this.calls.observe++;
        await this.beforeObserve?.(where);
        if (where.kind === 'contract') {
          const id = decodeURIComponent(where.url.split('/').pop() ?? '');
          return this.observation(id, 'site_contract', orderUrl(id));
        }
        const m = this.tabUrl?.match(/\/orders\/([^/?#]+)/);
        return m ? this.observation(m[1]!, this.tabSource, this.tabUrl) : null;
      },
      navigate: async (url: string) => {
        this.calls.navigate.push(url);
        this.tabUrl = url;
      },
      routes: async () => this.routes,
      executors: this.executors(),
    };
  }
}

/** Collects approval cards as the side panel would see them. */
export class FakePanel implements ApprovalNotifier {
  readonly cards: ApprovalRequest[] = [];
  readonly settledLog: [string, string][] = [];
  private taken = 0;
  private waiting: (() => void)[] = [];

  queued(request: ApprovalRequest): void {
    this.cards.push(request);
    for (const w of this.waiting.splice(0)) w();
  }

  settled(requestId: string, status: string): void {
    this.settledLog.push([requestId, status]);
  }

  /** The oldest card not yet taken, waiting for one if there is none. */
  async next(): Promise<ApprovalRequest> {
    while (this.taken >= this.cards.length) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.cards[this.taken++]!;
  }
}

export interface Harness {
  shop: FakeShop;
  panel: FakePanel;
  clock: FakeClock;
  factory: IDBFactory;
  db: StewardDb;
  pipeline: Pipeline;
  /** The harness token (public) and its secret, which `agent` presents. */
  token: DelegatedAgentToken;
  secret: string;
  agent: { agent_id: string; token: string; session_id: string };
}

const DEFAULT_SCOPE = ['orders:*', 'webmcp:*', 'dom:*', 'nav:goto'];

export async function harness(
  opts: { shop?: FakeShop; factory?: IDBFactory; clock?: FakeClock; token?: Partial<Parameters<Pipeline['deps']['tokens']['mint']>[0]>; pipeline?: Partial<OpenPipelineOptions> } = {},
): Promise<Harness> {
  const shop = opts.shop ?? new FakeShop();
  const panel = new FakePanel();
  const clock = opts.clock ?? new FakeClock();
  const factory = opts.factory ?? freshFactory();
  const db = await openDb(factory);
  const pipeline = await openPipeline({ openDb: async () => db, ports: shop.ports(), notifier: panel, clock: clock.now, ...opts.pipeline });
  const { token, secret } = await pipeline.deps.tokens.mint({
    agent_id: 'agent:copilot',
    scope: DEFAULT_SCOPE,
    resource_scope: 'order:*',
    origins: [ORIGIN],
    ttl_ms: 60 * 60_000,
    ...opts.token,
  });
  return { shop, panel, clock, factory, db, pipeline, token, secret, agent: { agent_id: 'agent:copilot', token: secret, session_id: 's1' } };
}

/** A second service-worker life on the same database: new stores, new pipeline, same shop. */
export async function restart(h: Harness, ports: PipelinePorts = h.shop.ports()): Promise<Harness> {
  const db = await openDb(h.factory);
  const panel = new FakePanel();
  const pipeline = await openPipeline({ openDb: async () => db, ports, notifier: panel, clock: h.clock.now });
  return { ...h, db, panel, pipeline };
}

let n = 0;
export const cancelRequest = (extra: Record<string, unknown> = {}) => ({
  action: 'orders.cancel',
  resource: ORDER,
  preconditions: { expected_state: 'awaiting_payment' },
  input: { reason: 'ordered_by_mistake' },
  idempotency_key: `key_${++n}`,
  ...extra,
});

/** The person's "Approve" of a card at time `t`, echoing the card's input hash and state_version as the side panel does. */
export const approvalOf = (card: ApprovalRequest, t: number) => ({
  request_id: card.request_id,
  decision: 'approve' as const,
  decided_by: 'user:local',
  decided_at: new Date(t).toISOString(),
  input_hash: card.input_hash,
  state_version: card.state.state_version,
});

/** Approves a card the way the side panel does: echoing the card's input hash and state_version. */
export async function approve(h: Harness, card: ApprovalRequest, options: { window_ms?: number } = {}): Promise<ApprovalRequest> {
  const r = await h.pipeline.deps.approvals.decide(approvalOf(card, h.clock.t), options);
  if (!r.ok) throw new Error(r.message);
  return card;
}

export async function approveNext(h: Harness, options: { window_ms?: number } = {}): Promise<ApprovalRequest> {
  return approve(h, await h.panel.next(), options);
}

/** A promise that never settles: what an await looks like when the service worker is killed there. */
export const killed = () => new Promise<never>(() => undefined);

/** Issues a receipt for `req` by approving a card for it directly in the queue (exact, or a window). */
export async function exactReceipt(h: Harness, req: ReturnType<typeof cancelRequest>, windowMs?: number, via: 'adapter' | 'site_contract' = 'adapter'): Promise<string> {
  const card = await h.pipeline.deps.approvals.enqueue({
    action_id: 'act_pre',
    agent_id: h.agent.agent_id,
    token_id: h.token.token_id,
    origin: ORIGIN,
    // A card is for the resource of the site it was found on, as the runner pins it.
    request: { ...req, resource: { ...req.resource, origin: ORIGIN }, input: req.input as Record<string, unknown> } as never,
    via,
    input_hash: await inputHash(req.input),
    observed: h.shop.observation('ORD-1024')!,
    reasons: [{ code: 'consequential' }],
  });
  const r = await h.pipeline.deps.approvals.decide(approvalOf(card, h.clock.t), windowMs ? { window_ms: windowMs } : {});
  if (!r.ok || r.status !== 'approved') throw new Error('not approved');
  return r.receipt.receipt_id;
}
