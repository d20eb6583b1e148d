import type { ChatMessage, AgentPorts, Observation } from '../../../src/agent/ports.ts';
import { runCopilot, type RunEnd, type RunSettings, type StepReport } from '../../../src/agent/loop.ts';
import type { ActionRequest, AvailableAction } from '../../../src/protocol/action.ts';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import type { ActionResult } from '../../../src/protocol/results.ts';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';

const ORDER = { type: 'order', id: 'ORD-1024' };

export const cancel: AvailableAction = {
  action: 'orders.cancel',
  via: 'adapter',
  description: 'Cancels the order.',
  read_only: false,
  consequential: true,
  payment: false,
  untrusted_content: false,
  requires_approval: true,
  input_schema: { type: 'object' },
};
export const track: AvailableAction = { ...cancel, action: 'orders.track', description: 'Shows where the parcel is.', read_only: true, consequential: false, requires_approval: false };

/** A fake shop order: `orders.cancel` cancels it (once, whatever the key), `orders.track` changes nothing. */
export class FakeShop {
  state = 'paid';
  version = 1;
  pageText = 'Order ORD-1024 · paid · 2 items';
  /** Every action the shop actually ran, in order. */
  executed: string[] = [];
  /** The pipeline's idempotency store: a key submitted again replays its result. */
  readonly byKey = new Map<string, ActionResult>();
  submitted: ActionRequest[] = [];
  /** How many times each idempotency key was actually run (never more than once). */
  readonly runsByKey = new Map<string, number>();
  /** More actions the page offers (tools, DOM steps), after cancel and track. */
  extraActions: AvailableAction[] = [];
  /** The snapshot the rendering came from, for the model's reads. */
  snapshot?: PageSnapshot;
  /** A tool's text output, returned with every successful result. */
  output?: { text: string; untrusted: boolean };
  /** The page's address (a hostile page may put anything in its query). */
  url = 'http://localhost:4100/orders/ORD-1024';
  /** What the next results look like. */
  mode: 'confirm' | 'fail' | 'unknown_only' | 'deny' = 'confirm';

  observation(): Observation {
    const state = ObservedState.parse({
      resource: ORDER,
      state: this.state,
      available_actions: ['orders.cancel', 'orders.track', ...this.extraActions.map((a) => a.action)],
      source: 'adapter',
      evidence: ['adapter'],
      confidence: 0.9,
      conflicts: [],
      state_version: `fp-${(0x100000 + this.version).toString(16)}`,
      observed_at: '2026-01-01T00:00:00.000Z',
      url: this.url,
      actions: [cancel, track, ...this.extraActions],
    });
    return { state, rendering: `# ${this.pageText}`, ...(this.snapshot ? { snapshot: this.snapshot } : {}) };
  }

  submit(req: ActionRequest): ActionResult {
    this.submitted.push(req);
    const replay = this.byKey.get(req.idempotency_key);
    if (replay) return replay;
    const result = this.run(req);
    this.byKey.set(req.idempotency_key, result);
    return result;
  }

  private run(req: ActionRequest): ActionResult {
    const action_id = `act_${this.submitted.length}`;
    if (this.mode === 'deny') {
      // What the pipeline answers once the person pressed Deny on the card.
      return {
        error: { code: 'APPROVAL_DENIED', message: `The user denied ${req.action}.`, retryable: false, recovery_hint: 'Ask the person.' },
        recovery_hint: 'Ask the person.',
        action_id,
      } as ActionResult;
    }
    if (this.mode === 'fail') {
      return {
        error: { code: 'PRECONDITION_FAILED', message: 'The order changed.', retryable: false, recovery_hint: 'Observe again.' },
        recovery_hint: 'Observe again.',
        action_id,
        current: { state: this.state, state_version: 'fp-100001' },
      } as ActionResult;
    }
    this.executed.push(req.action);
    this.runsByKey.set(req.idempotency_key, (this.runsByKey.get(req.idempotency_key) ?? 0) + 1);
    if (req.action === 'orders.cancel') {
      this.state = 'cancelled';
      this.version++;
    }
    if (this.mode === 'unknown_only') {
      return { action_id, resource: { ...ORDER }, execution: { status: 'unknown', certainty: 'unknown' } };
    }
    return {
      action_id,
      resource: { ...ORDER, state: this.state, state_version: `fp-${(0x100000 + this.version).toString(16)}` },
      execution: { status: 'confirmed', certainty: 'confirmed', executed_at: '2026-01-01T00:00:01.000Z', verified_by: 'postcondition' },
      ...(this.output ? { output: { ...this.output, truncated: false } } : {}),
    };
  }
}

/** A model that replies from a script, one reply per call, and remembers every prompt it saw. */
export class ScriptedModel {
  readonly prompts: ChatMessage[][] = [];
  /** Signals the model was called with, one per call. */
  readonly signals: Array<AbortSignal | undefined> = [];
  constructor(private readonly replies: Array<string | object | Error>) {}
  complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    this.prompts.push(messages);
    this.signals.push(signal);
    const next = this.replies.shift();
    if (next === undefined) throw new Error('the script ran out');
    if (next instanceof Error) return Promise.reject(next);
    return Promise.resolve(typeof next === 'string' ? next : JSON.stringify(next));
  }
}

export const act = (name: string, input: object = {}) => ({ kind: 'act', thought: `I will ${name}.`, action: { name, input }, expect: 'the order changes' });
export const read = (target: { ref: string } | { query: { role?: string; name?: string; text?: string } }) => ({ kind: 'read', thought: 'Let me look closer.', ...target });
export const done = (claim = 'The order is cancelled.') => ({ kind: 'done', thought: 'Finished.', claim });

export function portsFor(shop: FakeShop, model: ScriptedModel, clock: () => number = () => 0): AgentPorts {
  return {
    observe: () => Promise.resolve(shop.observation()),
    complete: (m, signal) => model.complete(m, signal),
    submit: (r) => Promise.resolve(shop.submit(r)),
    clock,
  };
}

/** Runs to the end, collecting the live step reports. */
export async function drain(goal: string, settings: RunSettings, ports: AgentPorts): Promise<{ steps: StepReport[]; end: RunEnd }> {
  const steps: StepReport[] = [];
  const run = runCopilot(goal, settings, ports);
  for (;;) {
    const next = await run.next();
    if (next.done) return { steps, end: next.value };
    steps.push(next.value);
  }
}
