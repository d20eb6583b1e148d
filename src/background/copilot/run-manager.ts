import { runCopilot, type RunEnd, type RunSettings, type StepReport } from '../../agent/loop.ts';
import { NO_POLICY, type Policy } from '../../protocol/managed-policy.ts';
import { modelVerdict } from '../../protocol/policy-rules.ts';
import type { AgentPorts } from '../../agent/ports.ts';
import { ModelFailure, type LanguageModelClient, type ModelConfig } from '../../agent/models/model.ts';
import { ok, refuseSaying, type Reply } from '../../protocol/channel.ts';
import type { ApprovalDecision } from '../../protocol/approval.ts';
import type { CopilotEnd, CopilotGrant, CopilotRequests, CopilotRun, ModelError, ModelProvider, ModelStatus } from '../../protocol/copilot.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import type { Settings } from '../../protocol/settings.ts';
import type { TabSiteStatus } from '../../protocol/site-access.ts';
import type { z } from 'zod';
import type { KeepAlive } from './keep-alive.ts';
import type { ModelKeyStore } from './model-key.ts';
import type { RunRecord } from './run-record.ts';
import { MAX_TOKEN_TTL_MS } from '../../protocol/token.ts';
import { createRunPorts, RunAborted, TabClosed, type RunPipeline, type RunPortsDeps } from './run-ports.ts';
import { runFailurePhrase } from './failure-phrase.ts';
import type { ReadRun, RunStore } from './run-store.ts';
import { endView, finalStep, putStep, reportedStep } from './step-view.ts';

/**
 * The co-pilot's runs in the service worker (issue 13): starts, steers and ends them, and drives
 * each run's loop (src/agent/loop.ts) step by step. A run lives here, not in the panel: closing
 * the panel changes nothing, and a killed worker resumes its runs from chrome.storage.session.
 *
 * Each run has its own agent id (`agent:copilot-<run id>`) and its own token: the audit entries
 * of a run are exactly those of its agent, its token covers only the tab's origin for the run's
 * lifetime, and revoking it at the end withdraws nothing from any other run.
 */

type Request<K extends keyof typeof CopilotRequests> = z.output<(typeof CopilotRequests)[K]['request']>;
type RunReply = Reply<{ run: CopilotRun }>;

interface CopilotPipeline extends RunPipeline {
  admin: RunPipeline['admin'] & {
    mintToken(request: { agent_id: string; scope: string[]; resource_scope: string; origins: string[]; payment?: boolean; ttl_ms: number }): Promise<{ token: { token_id: string }; secret: string }>;
    revokeToken(tokenId: string): Promise<unknown>;
    decide(decision: ApprovalDecision): Promise<{ ok: true } | { ok: false; problem: string; message: string }>;
  };
  /** Tells the paths of the agent's dispatched actions to stop what they run (a page's tool: its abort signal). */
  stopRunning(agentId: string): Promise<boolean>;
}

type Minted = Awaited<ReturnType<CopilotPipeline['admin']['mintToken']>>;

interface ModelProviders {
  create(config: ModelConfig): LanguageModelClient;
  status(config: ModelConfig, hasKey: boolean): Promise<ModelStatus>;
  /** The status after calling the endpoint (`config` with the key). */
  check(config: ModelConfig): Promise<ModelStatus>;
}

export interface RunManagerDeps extends Omit<RunPortsDeps, 'pipeline'> {
  pipeline: () => Promise<CopilotPipeline>;
  tabStatus(tabId: number): Promise<TabSiteStatus>;
  settings(): Promise<Settings['copilot']>;
  models: ModelProviders;
  keys: Pick<ModelKeyStore, 'keyFor' | 'set'>;
  store: Pick<RunStore, 'all' | 'get' | 'put'>;
  push(message: PanelPush): void;
  keepAlive: KeepAlive;
  newRunId(): string;
  loop?: (goal: string, settings: RunSettings, ports: AgentPorts) => AsyncGenerator<StepReport, RunEnd>;
  /** The organisation's managed policy: the co-pilot on or off, and the model endpoints it may use. */
  policy?: () => Promise<Policy>;
}

/** A run this worker drives (or holds paused). */
interface Live {
  record: RunRecord;
  abort: AbortController;
  paused: boolean;
  wake?: () => void;
  driving: boolean;
  ended: boolean;
  /** Time spent paused, or waiting for the person's answer, is not charged to the time budget. */
  pausedSince?: number;
  pausedTotal: number;
  /** The question the run waits on: the person's answer resolves it. */
  question?: { n: number; since: number; resolve: (answer: string) => void };
}

/** Why the organisation's policy ended a run, as a phrase for the panel (the detail is policy-rules.ts's English). */
function policyPhrase(reason: 'copilot_off' | 'endpoint_not_allowed', policy: Policy, provider: ModelProvider): Phrase {
  if (reason === 'copilot_off') return phrase('run_policy_copilot_off');
  return provider === 'prompt-api' ? phrase('run_policy_prompt_api') : phrase('run_policy_endpoint', { endpoints: (policy.allowedModelEndpoints ?? []).join(', ').slice(0, 600) });
}

/** Ends that are the person's own decision: a step they cut short reads "Stopped by you", not as a failure. */
const BY_PERSON = new Set<string>(['stopped_by_person', 'taken_over', 'denied_by_person']);

/** Why a run's pending card was withdrawn, as the audit's denial reason. */
const WITHDRAWN: Partial<Record<Extract<CopilotEnd, { kind: 'stopped' }>['reason'], string>> = {
  stopped_by_person: 'withdrawn: the person stopped the co-pilot run',
  taken_over: 'withdrawn: the person took over from the co-pilot run',
  tab_closed: 'withdrawn: the co-pilot run’s tab was closed',
  error: 'withdrawn: the co-pilot run ended',
};

const BROKEN_DETAIL = 'The run’s record could not be read back after a restart, so it was stopped.';

function brokenView(read: Extract<ReadRun, { ok: false }>): CopilotRun | undefined {
  if (!read.run) return undefined;
  return { ...read.run, status: 'stopped', end: read.run.end ?? { kind: 'stopped', reason: 'error', detail: BROKEN_DETAIL, detail_said: phrase('run_unreadable') } };
}

export class RunManager {
  private readonly live = new Map<string, Live>();
  private readonly starting = new Set<number>();
  private readonly loop: NonNullable<RunManagerDeps['loop']>;

  constructor(private readonly deps: RunManagerDeps) {
    this.loop = deps.loop ?? runCopilot;
  }

  private config(settings: Settings['copilot'], key: string | undefined): ModelConfig {
    return { provider: settings.provider, endpoint: settings.endpoint, model: settings.model, ...(key ? { key } : {}) };
  }

  async modelStatus(): Promise<ModelStatus> {
    const settings = await this.deps.settings();
    const key = await this.deps.keys.keyFor(settings.provider);
    return this.deps.models.status(this.config(settings, undefined), key !== undefined);
  }

  /** Calls the model's endpoint: "ready" only when it answered. */
  async checkModel(): Promise<ModelStatus> {
    const settings = await this.deps.settings();
    return this.deps.models.check(this.config(settings, await this.deps.keys.keyFor(settings.provider)));
  }

  async setKey({ provider, key }: Request<'copilot/set-key'>): Promise<Reply<{ has_key: boolean }>> {
    return ok({ has_key: await this.deps.keys.set(provider, key) });
  }

  async runs({ tabId }: Request<'copilot/runs'>): Promise<Reply<{ runs: CopilotRun[] }>> {
    const all = (await this.deps.store.all()).flatMap((r) => {
      const run = r.ok ? (this.live.get(r.record.run.run_id)?.record.run ?? r.record.run) : brokenView(r);
      return run ? [run] : [];
    });
    const runs = all.filter((r) => tabId === undefined || r.tabId === tabId).sort((a, b) => b.started_at - a.started_at);
    return ok({ runs: runs.slice(0, 50) });
  }

  async start(request: Request<'copilot/start'>): Promise<RunReply> {
    // Two quick starts on one tab: the second is refused, not raced past the check.
    if (this.starting.has(request.tabId)) return refuseSaying(phrase('run_starting'), 'RUN_ACTIVE', 'A co-pilot run is already starting on this tab.');
    this.starting.add(request.tabId);
    try {
      return await this.startOn(request);
    } finally {
      this.starting.delete(request.tabId);
    }
  }

  private async startOn({ tabId, goal, grant }: Request<'copilot/start'>): Promise<RunReply> {
    const active = [...this.live.values()].find((l) => l.record.run.tabId === tabId && !l.ended);
    if (active) {
      const { run_id } = active.record.run;
      return refuseSaying(phrase('run_already_active', { run_id }), 'RUN_ACTIVE', `A co-pilot run is already active on this tab (${run_id}); stop it first.`);
    }
    const site = await this.deps.tabStatus(tabId);
    if (!site.origin) return refuseSaying(phrase('run_no_web_page'), 'TAB_NOT_FOUND', 'The co-pilot works on an open web page (http or https); this tab has none.');
    if (!site.allowed) return refuseSaying(phrase('run_site_not_allowed', { origin: site.origin }), 'SITE_NOT_ALLOWED', `Steward may not read ${site.origin}: allow the site in the side panel first.`);
    const settings = await this.deps.settings();
    const policy = (await this.deps.policy?.()) ?? NO_POLICY;
    const allowed = modelVerdict(policy, settings);
    if (!allowed.ok) return refuseSaying(policyPhrase(allowed.reason, policy, settings.provider), 'POLICY_DENIED', allowed.message);
    const key = await this.deps.keys.keyFor(settings.provider);
    const config = this.config(settings, key);
    const status = await this.deps.models.status(this.config(settings, undefined), key !== undefined);
    if (!status.ready) return refuseSaying(status.detail_said ?? phrase('run_model_not_ready'), 'MODEL_NOT_READY', status.detail ?? 'The co-pilot’s model is not ready: check its settings.');
    const client = this.deps.models.create(config);

    const run_id = this.deps.newRunId();
    const agent_id = `agent:copilot-${run_id}`;
    const minted = await this.mint(agent_id, site.origin, grant);
    if ('ok' in minted) return minted;
    const record: RunRecord = {
      run: {
        run_id,
        goal,
        tabId,
        origin: site.origin,
        agent_id,
        token_id: minted.token.token_id,
        model_label: client.label.slice(0, 200),
        ...(client.label_said ? { model_label_said: client.label_said } : {}),
        status: 'running',
        started_at: this.deps.clock(),
        steps: [],
        budgets: {
          max_steps: settings.max_steps,
          tokens_used: 0,
          token_budget: settings.token_budget,
          elapsed_ms: 0,
          time_budget_ms: settings.time_budget_minutes * 60_000,
        },
      },
      secret: minted.secret,
      model: { provider: settings.provider, endpoint: settings.endpoint, model: settings.model },
      history: [],
      spent: { tokens: 0, elapsed_ms: 0 },
    };
    const live = this.track(record, false);
    await this.save(live);
    this.deps.push({ type: 'panel/tokens-changed' });
    this.deps.push({ type: 'panel/audit-changed' });
    this.drive(live, client);
    return ok({ run: record.run });
  }

  /** The run's token: what the person granted, on the tab's origin only. */
  private async mint(agent_id: string, origin: string, grant: z.output<typeof CopilotGrant>): Promise<Minted | Extract<RunReply, { ok: false }>> {
    try {
      return await (
        await this.deps.pipeline()
      ).admin.mintToken({ agent_id, scope: grant.scope, resource_scope: grant.resource_scope, origins: [origin], payment: grant.payment, ttl_ms: grant.ttl_ms });
    } catch (error) {
      // The token store's one RangeError: a lifetime beyond what Steward grants.
      if (error instanceof RangeError) return refuseSaying(phrase('token_lifetime', { max_ms: MAX_TOKEN_TTL_MS }), 'INVALID_INPUT', error.message);
      throw error;
    }
  }

  async pause({ run_id }: Request<'copilot/pause'>): Promise<RunReply> {
    const live = this.live.get(run_id);
    if (!live || live.ended) return this.notActive(run_id);
    if (!live.paused) {
      live.paused = true;
      live.pausedSince = this.deps.clock();
      live.record.run.status = 'paused';
      await this.save(live);
    }
    return ok({ run: live.record.run });
  }

  async resume({ run_id }: Request<'copilot/resume'>): Promise<RunReply> {
    const live = this.live.get(run_id);
    if (!live || live.ended) return this.notActive(run_id);
    if (live.paused) {
      live.paused = false;
      if (live.pausedSince !== undefined) live.pausedTotal += this.deps.clock() - live.pausedSince;
      delete live.pausedSince;
      live.record.run.status = this.waitingStatus(live);
      await this.save(live);
      live.wake?.();
      if (!live.driving) {
        const client = await this.clientFor(live.record);
        if (client) this.drive(live, client);
      }
    }
    return ok({ run: live.record.run });
  }

  /** What an unpaused run is doing: waiting for the person (a card, a question) or running. */
  private waitingStatus(live: Live): CopilotRun['status'] {
    const steps = live.record.run.steps;
    if (steps.some((s) => s.status === 'awaiting_answer')) return 'awaiting_answer';
    return steps.some((s) => s.status === 'awaiting_approval') ? 'awaiting_approval' : 'running';
  }

  /** The person's answer to the question the run waits on: the loop goes on with it as the step's result. */
  async answer({ run_id, answer }: Request<'copilot/answer'>): Promise<RunReply> {
    const live = this.live.get(run_id);
    if (!live || live.ended) return this.notActive(run_id);
    const question = live.question;
    if (!question) return refuseSaying(phrase('run_not_waiting', { run_id }), 'NO_QUESTION', `The co-pilot run ${run_id} is not waiting for an answer.`);
    delete live.question;
    live.pausedTotal += this.deps.clock() - question.since;
    const { run } = live.record;
    const step = run.steps.find((s) => s.n === question.n);
    if (step) run.steps = putStep(run.steps, { ...step, status: 'answered', answer });
    run.status = live.paused ? 'paused' : 'running';
    await this.save(live);
    question.resolve(answer);
    return ok({ run });
  }

  /** Until the person answers step `n`'s question; rejects when the run ends first. */
  private waitForAnswer(live: Live, n: number): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const signal = live.abort.signal;
      if (signal.aborted) return reject(new RunAborted());
      signal.addEventListener('abort', () => reject(new RunAborted()), { once: true });
      live.question = { n, since: this.deps.clock(), resolve };
    });
  }

  async stop({ run_id }: Request<'copilot/stop'>): Promise<RunReply> {
    return this.endByPerson(run_id, { kind: 'stopped', reason: 'stopped_by_person', detail: 'Stopped by the person.' });
  }

  /** Ends the run where it is: no further action, no navigation; the tab is the person's again. */
  async takeOver({ run_id }: Request<'copilot/take-over'>): Promise<RunReply> {
    return this.endByPerson(run_id, { kind: 'stopped', reason: 'taken_over', detail: 'The person took over; the tab was left as it is.' });
  }

  /**
   * The organisation's policy changed (or was read at start): a run whose model it no longer
   * allows, or every run when it turns the co-pilot off, ends now, its pending card withdrawn.
   */
  async policyChanged(policy: Policy): Promise<void> {
    for (const live of [...this.live.values()]) {
      if (live.ended) continue;
      const verdict = modelVerdict(policy, live.record.model);
      if (!verdict.ok) await this.finish(live, { kind: 'stopped', reason: 'error', detail: verdict.message, detail_said: policyPhrase(verdict.reason, policy, live.record.model.provider) });
    }
  }

  /** A closed tab ends its runs. */
  async onTabRemoved(tabId: number): Promise<void> {
    for (const live of [...this.live.values()]) {
      if (live.record.run.tabId === tabId && !live.ended) await this.finish(live, { kind: 'stopped', reason: 'tab_closed', detail: 'The run’s tab was closed.' });
    }
  }

  /**
   * At worker start: runs that were running resume (fresh observation, their history, the request
   * whose result was unknown resubmitted with its key); paused runs stay paused; a record that
   * cannot be read back is reported stopped and its token revoked.
   */
  async restore(): Promise<void> {
    for (const read of await this.deps.store.all()) {
      if (!read.ok) {
        const view = brokenView(read);
        if (read.token_id) await this.revoke(read.token_id);
        if (view) this.deps.push({ type: 'copilot/run-changed', run: view });
        continue;
      }
      const { record } = read;
      if (record.run.end || this.live.has(record.run.run_id)) continue;
      const paused = record.run.status === 'paused';
      const live = this.track(record, paused);
      if (paused) continue;
      const client = await this.clientFor(record);
      if (client) this.drive(live, client);
    }
  }

  private notActive(run_id: string): RunReply {
    return refuseSaying(phrase('run_not_active', { run_id }), 'RUN_NOT_ACTIVE', `No active co-pilot run ${run_id}.`);
  }

  private async endByPerson(run_id: string, end: CopilotEnd): Promise<RunReply> {
    const live = this.live.get(run_id);
    if (!live || live.ended) return this.notActive(run_id);
    await this.finish(live, end);
    return ok({ run: live.record.run });
  }

  private track(record: RunRecord, paused: boolean): Live {
    const live: Live = { record, abort: new AbortController(), paused, driving: false, ended: false, pausedTotal: 0, ...(paused ? { pausedSince: this.deps.clock() } : {}) };
    this.live.set(record.run.run_id, live);
    this.deps.keepAlive.update(this.activeCount());
    return live;
  }

  private activeCount(): number {
    return [...this.live.values()].filter((l) => !l.ended).length;
  }

  /** The run's model with the key as stored now; a missing model ends the run with `model_error`. */
  private async clientFor(record: RunRecord): Promise<LanguageModelClient | undefined> {
    const key = await this.deps.keys.keyFor(record.model.provider);
    try {
      return this.deps.models.create(this.config({ ...(await this.deps.settings()), ...record.model }, key));
    } catch (error) {
      const live = this.live.get(record.run.run_id);
      const modelError: ModelError = error instanceof ModelFailure ? error.error : { code: 'not_configured', message: String(error).slice(0, 1000) };
      if (live) await this.finish(live, { kind: 'stopped', reason: 'model_error', detail: modelError.message }, modelError);
      return undefined;
    }
  }

  private async save(live: Live): Promise<void> {
    // The panel is sent exactly what was stored: a change made meanwhile comes with its own save.
    const record = structuredClone(live.record);
    await this.deps.store.put(record);
    this.deps.push({ type: 'copilot/run-changed', run: record.run });
  }

  private async revoke(tokenId: string): Promise<void> {
    try {
      await (await this.deps.pipeline()).admin.revokeToken(tokenId);
      this.deps.push({ type: 'panel/tokens-changed' });
      this.deps.push({ type: 'panel/audit-changed' });
    } catch (error) {
      console.warn('co-pilot: could not revoke the run’s token', tokenId, error);
    }
  }

  private async finish(live: Live, end: CopilotEnd, modelError?: ModelError): Promise<void> {
    if (live.ended) return;
    live.ended = true;
    live.abort.abort(end.kind === 'stopped' ? end.reason : 'finished');
    live.wake?.();
    const { run } = live.record;
    run.end = end;
    run.status = end.kind === 'done' ? 'finished' : 'stopped';
    if (modelError) run.model_error = modelError;
    if (end.kind === 'done' || end.reason === 'ask_person') {
      // The model's last answer takes the place of the step that was thinking.
      const n = live.record.history.length + 1;
      run.steps = putStep(run.steps, finalStep(n, end, live.record.history.at(-1)?.state));
    }
    // A step still shown as in progress did not finish: cut short by the person, or failed.
    const byPerson = end.kind === 'stopped' && BY_PERSON.has(end.reason);
    for (const s of run.steps) {
      if (s.status !== 'thinking' && s.status !== 'running' && s.status !== 'awaiting_approval' && s.status !== 'awaiting_answer') continue;
      if (byPerson) {
        s.status = 'stopped';
        if (s.outcome === undefined) {
          s.outcome = 'You stopped the run before this step finished; nothing more was done.';
          s.outcome_said = phrase('step_stopped');
        }
      } else {
        s.status = 'failed';
        if (s.error === undefined) {
          const reason = end.kind === 'stopped' ? end.reason : 'done';
          s.error = `The run ended before this step finished (${reason}).`;
          s.error_said = phrase('step_cut_short', { reason });
        }
      }
      delete s.approval_id;
      delete s.partial;
    }
    delete live.question;
    delete live.record.inflight;
    this.deps.keepAlive.update(this.activeCount());
    // Nothing of the run is left waiting, running or usable once the panel sees it ended: a page's
    // tool it dispatched hears the stop through its abort signal.
    if (end.kind === 'stopped') {
      await (await this.deps.pipeline()).stopRunning(run.agent_id).catch((error: unknown) => console.warn('co-pilot: could not stop the run’s running action', error));
    }
    await this.withdraw(run.agent_id, end).catch((error: unknown) => console.warn('co-pilot: could not withdraw the run’s approvals', error));
    await this.revoke(run.token_id);
    await this.save(live);
    // Until stored, `copilot/runs` answers from here: never the record as it was before the end.
    this.live.delete(run.run_id);
  }

  /** The run's cards still waiting for the person are denied in its name, so no stale card stays in the panel (the audit says why). */
  private async withdraw(agentId: string, end: CopilotEnd): Promise<void> {
    const pipeline = await this.deps.pipeline();
    // Every card of the run's own agent: also one whose step was not yet shown as waiting.
    const cards = (await pipeline.admin.pendingApprovals()).filter((a) => a.agent_id === agentId).map((a) => a.request_id);
    if (cards.length === 0) return;
    const why = end.kind === 'stopped' ? WITHDRAWN[end.reason] : undefined;
    // Stop and Take over are the person's; a closed tab or an error ends the run without anyone deciding on the card.
    const stoppedByPerson = end.kind === 'stopped' && (end.reason === 'stopped_by_person' || end.reason === 'taken_over');
    for (const request_id of cards) {
      try {
        const r = await pipeline.admin.decide({
          request_id,
          decision: 'deny',
          decided_by: 'user:local',
          decided_at: new Date(this.deps.clock()).toISOString(),
          reason: why ?? WITHDRAWN.error,
          withdrawn: stoppedByPerson ? 'person_stopped' : 'run_ended',
        });
        if (!r.ok && r.problem !== 'already_decided' && r.problem !== 'expired') console.warn('co-pilot: could not withdraw the run’s approval', request_id, r.message);
      } catch (error) {
        console.warn('co-pilot: could not withdraw the run’s approval', request_id, error);
      }
    }
    this.deps.push({ type: 'panel/approvals-changed' });
    this.deps.push({ type: 'panel/audit-changed' });
  }

  private drive(live: Live, client: LanguageModelClient): void {
    live.driving = true;
    void this.steps(live, client).catch(async (error: unknown) => {
      if (live.ended) return;
      if (error instanceof RunAborted) return;
      if (error instanceof TabClosed) return this.finish(live, { kind: 'stopped', reason: 'tab_closed', detail: 'The run’s tab was closed.' });
      if (error instanceof ModelFailure) return this.finish(live, { kind: 'stopped', reason: 'model_error', detail: error.error.message }, error.error);
      console.error('co-pilot run failed', live.record.run.run_id, error);
      const message = error instanceof Error ? error.message : String(error);
      // The person reads what failed in a sentence of its own, the error's words one click away (failure-phrase.ts).
      const said = runFailurePhrase(error, live.record.run.tabId);
      return this.finish(live, { kind: 'stopped', reason: 'error', detail: `Steward failed: ${message}`.slice(0, 2000), detail_said: said });
    });
  }

  private async steps(live: Live, client: LanguageModelClient): Promise<void> {
    const { record } = live;
    const { run } = record;
    record.spent = { tokens: run.budgets.tokens_used, elapsed_ms: run.budgets.elapsed_ms };
    // Never backwards: a pause while the run waits for an answer is not subtracted twice.
    let last = 0;
    const now = () => {
      const waiting = live.question ? this.deps.clock() - live.question.since : 0;
      last = Math.max(last, this.deps.clock() - live.pausedTotal - waiting - (live.pausedSince !== undefined ? this.deps.clock() - live.pausedSince : 0));
      return last;
    };
    const handle = {
      record,
      client,
      signal: live.abort.signal,
      paused: () => live.paused,
      save: () => (live.ended ? Promise.resolve() : this.save(live)),
      show: () => (live.ended ? undefined : this.deps.push({ type: 'copilot/run-changed', run: structuredClone(record.run) })),
      waitForAnswer: (n: number) => this.waitForAnswer(live, n),
    };
    const ports = createRunPorts(this.deps, handle, now);
    const settings: RunSettings = {
      run_id: run.run_id,
      max_steps: run.budgets.max_steps,
      time_budget_ms: Math.max(1, run.budgets.time_budget_ms - record.spent.elapsed_ms),
      token_budget: Math.max(1, run.budgets.token_budget - record.spent.tokens),
      resume: record.history,
      signal: live.abort.signal,
      ...(record.inflight ? { inflight: record.inflight } : {}),
    };
    const steps = this.loop(run.goal, settings, ports);
    for (;;) {
      while (live.paused && !live.ended) await new Promise<void>((wake) => (live.wake = wake));
      if (live.ended) return;
      const next = await steps.next();
      if (live.ended) return;
      if (next.done) {
        const end = next.value;
        return this.finish(live, endView(end), end.kind === 'stopped' ? end.model_error : undefined);
      }
      this.apply(live, next.value);
      await this.save(live);
      // An action went through the pipeline: the audit log has new entries.
      if (next.value.entry.step?.kind === 'act') this.deps.push({ type: 'panel/audit-changed' });
    }
  }

  private apply(live: Live, report: StepReport): void {
    const { record } = live;
    record.history.push(report.entry);
    delete record.inflight;
    const steps = record.run.steps;
    record.run.steps = putStep(
      steps,
      reportedStep(
        report,
        steps.find((s) => s.n === report.entry.n),
      ),
    );
    record.run.budgets.tokens_used = record.spent.tokens + report.tokens_used;
    record.run.budgets.elapsed_ms = record.spent.elapsed_ms + report.elapsed_ms;
    record.run.status = live.paused ? 'paused' : this.waitingStatus(live);
  }
}
