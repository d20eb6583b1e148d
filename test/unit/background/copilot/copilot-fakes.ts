import type { ChatMessage } from '../../../../src/agent/ports.ts';
import { ModelFailure, type LanguageModelClient, type ModelConfig } from '../../../../src/agent/models/model.ts';
import { KeepAlive } from '../../../../src/background/copilot/keep-alive.ts';
import { ModelKeyStore } from '../../../../src/background/copilot/model-key.ts';
import { RunManager, type RunManagerDeps } from '../../../../src/background/copilot/run-manager.ts';
import { RunStore } from '../../../../src/background/copilot/run-store.ts';
import type { CopilotRun, ModelStatus } from '../../../../src/protocol/copilot.ts';
import type { PanelPush } from '../../../../src/protocol/panel-channel.ts';
import { DEFAULT_SETTINGS } from '../../../../src/protocol/settings.ts';
import { MemoryTaintLedger } from '../../../../src/pipeline/taint.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';
import { ORIGIN, harness, restart, type Harness } from '../../pipeline/fakes.ts';

/**
 * A run manager over a real pipeline (fake shop, fake IndexedDB, the fake browser's storage) and
 * a scripted model: the only thing faked that the worker would not fake is the model and the tab.
 */

export const TAB = 12;
export const KEY = 'sk-test-0123456789-secret';

export type Reply = string | ((messages: ChatMessage[], signal?: AbortSignal) => string | Promise<string>);

export const act = (name: string, input: Record<string, unknown> = {}, thought = `do ${name}`) => JSON.stringify({ kind: 'act', thought, action: { name, input }, expect: 'the order changes' });
export const done = (claim = 'The order is cancelled.') => JSON.stringify({ kind: 'done', thought: 'finished', claim });

class ScriptedClient implements LanguageModelClient {
  label = 'Demo model (scripted)';
  readonly calls: ChatMessage[][] = [];
  /** Whether the run's agent was already tainted when each call was made. */
  readonly taintedAtCall: boolean[] = [];
  constructor(
    public replies: Reply[],
    private readonly ledger: MemoryTaintLedger,
    private readonly agentOf: () => string | undefined,
  ) {}
  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    this.calls.push(messages);
    const agent = this.agentOf();
    this.taintedAtCall.push(agent !== undefined && (await this.ledger.taintOf(agent)) !== undefined);
    const next = this.replies.shift();
    if (next === undefined) throw new ModelFailure({ code: 'server_error', message: 'The scripted model has no more replies.' });
    return typeof next === 'string' ? next : next(messages, signal);
  }
}

export interface Setup {
  h: Harness;
  manager: RunManager;
  client: ScriptedClient;
  pushes: PanelPush[];
  ledger: MemoryTaintLedger;
  tab: { allowed: boolean; open: boolean };
  model: { ready: boolean };
  /** Makes every later sleep of this manager hang: what a killed worker looks like from inside. */
  kill(): void;
  deps: RunManagerDeps;
}

const tick = () => new Promise<void>((r) => setTimeout(r, 1));
const never = () => new Promise<never>(() => undefined);

const live = new Set<Setup>();

/** Halts every run a test left behind (one waiting for an approval polls forever), so nothing runs on after its test. */
export function haltAll(): void {
  for (const s of live) s.kill();
  live.clear();
}

export async function setUp(replies: Reply[], opts: { h?: Harness; ledger?: MemoryTaintLedger; runId?: string } = {}): Promise<Setup> {
  const ledger = opts.ledger ?? new MemoryTaintLedger();
  const h = opts.h ?? (await harness({ pipeline: { taint: ledger } }));
  const pushes: PanelPush[] = [];
  const tab = { allowed: true, open: true };
  const model = { ready: true };
  let killed = false;
  let lastAgent: string | undefined;
  const client = new ScriptedClient(replies, ledger, () => lastAgent);
  let n = 0;
  const deps: RunManagerDeps = {
    pipeline: async () => h.pipeline,
    sessionFor: async () => 's1',
    taint: (agentId, source, said) => ledger.mark(agentId, { at: h.clock.t, source, said }),
    observeTab: async () => {
      if (!tab.open) return { ok: false, error: { code: 'TAB_GONE', message: 'no tab', retryable: false } };
      const state = h.shop.observation('ORD-1024')!;
      return { ok: true, tab: { state, snapshot: shopOrderSnapshot({ status: state.state === 'cancelled' ? 'cancelled' : 'awaiting_payment' }), bindings: [], adapterIds: [], at: h.clock.t } };
    },
    tabExists: async () => tab.open,
    tabStatus: async (tabId) => ({ tabId, origin: ORIGIN, allowed: tab.allowed, observing: tab.allowed }),
    settings: async () => ({ ...DEFAULT_SETTINGS.copilot, endpoint: 'http://127.0.0.1:9/v1', model: 'scripted' }),
    models: {
      create: (_config: ModelConfig) => client,
      status: async (config: ModelConfig, hasKey: boolean): Promise<ModelStatus> => ({
        provider: config.provider,
        model_label: client.label,
        has_key: hasKey,
        ready: model.ready,
        ...(model.ready ? {} : { detail: 'Choose a model in Settings first.' }),
      }),
      check: async (config: ModelConfig): Promise<ModelStatus> => ({
        provider: config.provider,
        model_label: client.label,
        has_key: config.key !== undefined,
        ready: model.ready,
        checked: model.ready,
        ...(model.ready ? {} : { detail: 'Choose a model in Settings first.' }),
      }),
    },
    keys: new ModelKeyStore(),
    store: new RunStore(),
    push: (m) => {
      if (m.type === 'copilot/run-changed') lastAgent = m.run.agent_id;
      pushes.push(structuredClone(m));
    },
    keepAlive: new KeepAlive(async () => undefined),
    newRunId: () => opts.runId ?? `run-t${++n}`,
    clock: () => h.clock.t,
    sleep: () => (killed ? never() : tick()),
  };
  await deps.keys.set('openai', KEY);
  const setup: Setup = { h, manager: new RunManager(deps), client, pushes, ledger, tab, model, kill: () => (killed = true), deps };
  live.add(setup);
  return setup;
}

/** A second worker life: a new pipeline on the same database, a new manager on the same session storage. */
export async function restarted(before: Setup, replies: Reply[]): Promise<Setup> {
  before.kill();
  const h = await restart(before.h);
  const next = await setUp(replies, { h, ledger: before.ledger });
  await h.pipeline.recover();
  return next;
}

/** Waits until the latest pushed state of the run satisfies `ok`. */
export async function until(s: Setup, ok: (run: CopilotRun) => boolean, what = 'the run to change'): Promise<CopilotRun> {
  for (let i = 0; i < 2000; i++) {
    const runs = s.pushes.flatMap((p) => (p.type === 'copilot/run-changed' ? [p.run] : []));
    const last = runs.at(-1);
    if (last && ok(last)) return last;
    await tick();
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s.pushes.at(-1))}`);
}
