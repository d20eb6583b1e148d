import type { AuditExporter } from './audit-export/exporter.ts';
import { ActionRequest } from '../protocol/action.ts';
import { makeError, type StewardError } from '../protocol/errors.ts';
import { isTerminal, type JournalState } from '../protocol/journal.ts';
import { AgentId } from '../protocol/primitives.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import { errorResult, isErrorResult, type ActionResult } from '../protocol/results.ts';
import type { TokenId } from '../protocol/token.ts';
import { parseOrError } from '../protocol/validate.ts';
import type { StoredAction } from '../storage/action-record.ts';
import type { NewAction } from '../storage/journal-store.ts';
import { PipelineAdmin } from './admin.ts';
import { agentRecords, type AgentRecords } from './agent-records.ts';
import type { AgentContext } from './agent-context.ts';
import { inputHash, requestHash } from '../base/hash.ts';
import { newId } from '../base/ids.ts';
import { reconcileKey, reconcileKeys, type KeyReport } from './key-reconciler.ts';
import type { ResumeAssessment } from './memory-resolver.ts';
import { reachResource } from './navigator.ts';
import { checkToken } from './policy/gateway.ts';
import { dueRechecks } from './recheck.ts';
import { recoverAction, type RecoveryReport } from './recovery.ts';
import { ActionRunner, type ActionRun, type PipelineDeps } from './runner.ts';
import { Stopwatch, type PipelineTimings } from './timings.ts';
import { phrase } from '../protocol/phrase.ts';
import { withMcpSession } from '../protocol/mcp-session.ts';

export interface SubmitOutcome {
  result: ActionResult;
  /** The pipeline's own time for this call, excluding ports and approval wait. */
  timings: PipelineTimings;
}

export interface ActionStatus {
  action_id: string;
  state: JournalState;
  finished: boolean;
  /** The latest result the journal holds for it. */
  result?: ActionResult;
}

/** How long an agent should wait before asking again about a running key. */
const IN_PROGRESS_RETRY_MS = 1000;

/** A replayed key re-reads its `unknown` action at most this often: replaying cannot hammer the page. */
const REPLAY_RECHECK_EVERY_MS = 2000;

/**
 * The Intent-to-Transaction pipeline (DESIGN §5): every action from every agent goes through
 * submit(). Steps: (1) parse, (2) delegated auth and idempotency claim, journal `proposed`,
 * (3) memory hints, (4) navigator reaches and observes the resource, (5) capability, (6)
 * preconditions, (7) policy gateway and approval, (8) execute on the most authoritative path,
 * (9) verify, record memory and audit. No chrome.* here: the browser is behind `deps.ports`.
 */
export class Pipeline {
  readonly runner: ActionRunner;
  /** The person's side: approvals, tokens, the audit log, purging (admin.ts). */
  readonly admin: PipelineAdmin;
  /** Actions this instance is running right now; recovery leaves them alone. */
  private readonly live = new Set<string>();
  private readonly background = new Set<Promise<unknown>>();
  private readonly tracked = new Map<string, Promise<unknown>>();
  /** When a replay last re-read each `unknown` action (settledSince). */
  private readonly replayRechecks = new Map<string, number>();
  /** Idempotency keys the last recover() found claimed by no running action, and what became of them. */
  keyRecovery: KeyReport[] = [];
  /** The audit export to the organisation's collector, when the pipeline was given its ports (create.ts). */
  auditExport: AuditExporter | undefined;
  /** Called when an action starts or stops running here: who acts on which tab may have changed (presence.ts). */
  onActivity: () => void = () => undefined;

  constructor(
    readonly deps: PipelineDeps,
    private readonly perfNow: () => number = () => performance.now(),
  ) {
    this.runner = new ActionRunner(deps);
    this.admin = new PipelineAdmin(deps, () => this.auditExport?.keepsFrom() ?? Promise.resolve(Infinity));
  }

  async submit(raw: unknown, agent: AgentContext): Promise<ActionResult> {
    return (await this.submitDetailed(raw, agent)).result;
  }

  async submitDetailed(raw: unknown, agent: AgentContext): Promise<SubmitOutcome> {
    const sw = new Stopwatch(this.perfNow);
    const result = await this.intake(raw, agent, sw);
    return { result, timings: sw.read() };
  }

  /** Steps 1–2: parse, authenticate, claim the idempotency key, journal `proposed`. */
  private async intake(raw: unknown, agent: AgentContext, sw: Stopwatch): Promise<ActionResult> {
    const { tokens, journal } = this.deps;
    const parsed = parseOrError(ActionRequest, raw, { what: 'action request' });
    if (!parsed.ok) return this.refuse(agent, parsed.error);
    const request = parsed.value;

    const presented = await tokens.authenticate(agent.token);
    const auth = checkToken(agent.agent_id, presented, request.resource);
    if (!auth.ok) return this.refuse(agent, auth.error, request, undefined, presented.ok ? presented.token.token_id : presented.token_id);

    const [input_hash, request_hash] = await Promise.all([inputHash(request.input), requestHash(request.action, request.resource, request.input)]);
    const action_id = newId('act_');
    const draft: NewAction = {
      action_id,
      agent_id: agent.agent_id,
      token_id: auth.token.token_id,
      idempotency_key: request.idempotency_key,
      request,
      request_hash,
      input_hash,
      context: {
        untrusted_input: agent.untrusted_input ?? false,
        ...(agent.session_id ? { session_id: agent.session_id } : {}),
        ...(agent.expect ? { expect: agent.expect } : {}),
        ...(agent.mcp_session ? { mcp_session: agent.mcp_session } : {}),
      },
    };
    const keyClaim = { agent_id: agent.agent_id, key: request.idempotency_key, request_hash, action_id };
    // The key and the `proposed` record are written together (one transaction): never one without the other.
    let claim = await journal.beginClaimed(keyClaim, draft);
    // A key left claimed by an action that is not running (an older version's crash) is settled, then claimed anew.
    if (claim.kind === 'in_progress' && !this.live.has(claim.action_id) && (await reconcileKey(this.deps, claim.action_id, request.idempotency_key, agent.agent_id)) !== 'running') {
      claim = await journal.beginClaimed(keyClaim, draft);
    }
    if (claim.kind === 'replay') {
      this.auditLoose(agent, request, 'proposal', { outcome: 'idempotent_replay', details: { action_id: claim.action_id } }, input_hash, auth.token.token_id);
      return this.settledSince(claim.action_id, claim.result);
    }
    if (claim.kind === 'conflict') {
      return this.refuse(
        agent,
        makeError('IDEMPOTENCY_CONFLICT', `Idempotency key ${request.idempotency_key} was already used for a different request.`, { details: { action_id: claim.action_id } }),
        request,
        input_hash,
        auth.token.token_id,
      );
    }
    if (claim.kind === 'in_progress') {
      return errorResult(
        makeError('IN_PROGRESS', `The request with idempotency key ${request.idempotency_key} is still running.`, { retry_after_ms: IN_PROGRESS_RETRY_MS, details: { action_id: claim.action_id } }),
        { action_id: claim.action_id },
      );
    }
    const action: StoredAction = claim.action;
    const run = this.runner.newRun(action, auth.token, sw);
    if (agent.person_words) run.person_words = agent.person_words;
    run.trail.step('proposal', { outcome: 'proposed', ...(request.rationale ? { details: { rationale: request.rationale } } : {}) });
    this.live.add(action_id);
    this.onActivity();
    try {
      return await this.proceed(run, agent);
    } catch (error) {
      return await this.crashed(run, error);
    } finally {
      // A continuation waiting for approval in the background keeps the action live.
      if (!this.tracked.has(action_id)) this.live.delete(action_id);
      this.onActivity();
    }
  }

  /** Steps 3–9 for a freshly proposed action; a card for the person is waited for here or in the background. */
  private async proceed(run: ActionRun, agent: AgentContext): Promise<ActionResult> {
    const outcome = await this.runner.run(run);
    if (outcome.kind === 'ended') return outcome.result;
    if (agent.wait_for_approval === false) {
      this.track(this.awaitDecision({ ...run, sw: new Stopwatch(this.perfNow) }, outcome.request_id), run.action.action_id);
      return errorResult(
        makeError('APPROVAL_REQUIRED', `${run.action.request.action} needs the user's approval in Steward's side panel; it will run once approved.`, {
          recovery_hint: 'Resubmit with the same idempotency key to get IN_PROGRESS until the user decides, then the result.',
          details: { approval_request_id: outcome.request_id, reasons: outcome.reasons },
        }),
        { action_id: run.action.action_id },
      );
    }
    return this.awaitDecision(run, outcome.request_id);
  }

  /** Waits for the side panel's decision on a queued card, then runs the approved action (or ends it). */
  async awaitDecision(run: ActionRun, requestId: string): Promise<ActionResult> {
    const outcome = await run.sw.outside(() => this.deps.approvals.wait(requestId), 'approval');
    if (outcome.kind === 'denied') {
      // A card the person's Stop withdrew says so, as the Stop before dispatch does (runner.ts): the audit tells it from a Deny.
      const withdrawn = outcome.withdrawn === 'person_stopped' ? { stopped_by: 'user:local' } : outcome.withdrawn === 'run_ended' ? { withdrawn: 'run_ended' } : undefined;
      return this.runner.stop(
        run,
        errorResult(
          makeError('APPROVAL_DENIED', `The user denied ${run.action.request.action}${outcome.reason ? `: ${outcome.reason}` : '.'}`.slice(0, 4096), withdrawn ? { details: withdrawn } : {}),
          { action_id: run.action.action_id },
        ),
        true,
      );
    }
    if (outcome.kind === 'expired') {
      return this.runner.stop(run, errorResult(makeError('APPROVAL_REQUIRED', 'The approval request expired without a decision; nothing was done.'), { action_id: run.action.action_id }));
    }
    const { receipt } = outcome;
    await this.deps.journal.transition(run.action.action_id, 'approved', { receipt_id: receipt.receipt_id });
    run.action = { ...run.action, receipt_id: receipt.receipt_id };
    run.trail.useReceipt(receipt.receipt_id);
    run.trail.step('approval', { receipt_id: receipt.receipt_id, outcome: 'approved', state_version_before: receipt.state_version, details: { approved_by: receipt.approved_by } });
    return (await this.runner.run(run, receipt)).result;
  }

  /**
   * An unexpected error mid-pipeline. Before dispatch nothing happened: end the action and free
   * its key. After dispatch the action may have happened: leave it to recheck()/recover().
   */
  private async crashed(run: ActionRun, error: unknown): Promise<ActionResult> {
    const message = error instanceof Error ? error.message : String(error);
    console.error('pipeline error', error);
    const head = await this.deps.journal.action(run.action.action_id).catch(() => undefined);
    const dispatched = !head || !['proposed', 'awaiting_approval', 'approved'].includes(head.state);
    if (!dispatched && head && !isTerminal(head.state)) {
      const result = errorResult(
        makeError('EXECUTION_FAILED', `Steward failed before dispatching: ${message}`.slice(0, 4096), { retryable: true, recovery_hint: 'Nothing took effect; retry with the same idempotency key.' }),
        {
          action_id: run.action.action_id,
        },
      );
      return this.runner.stop(run, result).catch(() => result);
    }
    return errorResult(makeError('EXECUTION_FAILED', `Steward failed after dispatching: ${message}`.slice(0, 4096)), { action_id: run.action.action_id });
  }

  /**
   * Resolves every unfinished action after a service-worker restart. Call once at start-up.
   * `claimed` is called as soon as every unfinished action is marked running here: from then on
   * its key answers IN_PROGRESS and no recheck touches it, so callers need not wait for the page
   * reads that resolve them (a tab still loading can take its whole load deadline).
   */
  async recover(claimed?: () => void): Promise<RecoveryReport[]> {
    await this.deps.restore?.().catch((e) => console.error('restoring counters failed', e));
    const reports: RecoveryReport[] = [];
    const unfinished = (await this.deps.journal.unfinished()).filter((action) => !this.live.has(action.action_id));
    for (const action of unfinished) this.live.add(action.action_id);
    claimed?.();
    for (const action of unfinished) {
      try {
        reports.push(await recoverAction(this, action, (p) => this.track(p, action.action_id)));
      } catch (error) {
        // E.g. the journal refused a transition because something else moved the action: leave it.
        console.error('recovery failed for', action.action_id, error);
        reports.push({ action_id: action.action_id, from: action.state, to: 'unchanged' });
      } finally {
        if (!this.tracked.has(action.action_id)) this.live.delete(action.action_id);
      }
    }
    // Keys whose action the journal never saw, or whose result never reached the key (killed in between).
    this.keyRecovery = await reconcileKeys(this.deps, this.live).catch((error: unknown) => {
      console.error('reconciling idempotency keys failed', error);
      return [];
    });
    this.onActivity();
    return reports;
  }

  /**
   * Re-reads a pending_confirmation / unknown action's resource to confirm it (polling), without
   * navigating any tab; nothing is read once the agent's token is revoked or expired.
   */
  async recheck(actionId: string, options: { audit_unresolved?: boolean } = {}): Promise<ActionStatus | undefined> {
    const action = await this.deps.journal.action(actionId);
    if (!action) return undefined;
    if ((action.state === 'pending_confirmation' || action.state === 'unknown') && !this.live.has(actionId)) {
      const auth = checkToken(action.agent_id, await this.deps.tokens.check(action.token_id), action.request.resource);
      if (!auth.ok) return this.status(actionId);
      this.live.add(actionId);
      try {
        await this.runner.resolveDispatched(this.runner.newRun(action, auth.token, new Stopwatch(this.perfNow)), options);
      } finally {
        this.live.delete(actionId);
      }
    }
    return this.status(actionId);
  }

  /**
   * Re-reads every action left `pending_confirmation` or `unknown` that is due (recheck.ts), as
   * recheck() does: the recheck alarm's work, when nobody is watching. Returns the ids re-read.
   */
  async recheckOpen(now = this.deps.clock()): Promise<string[]> {
    const rechecked: string[] = [];
    for (const action of dueRechecks(await this.deps.journal.unfinished(), now)) {
      try {
        await this.recheck(action.action_id);
        rechecked.push(action.action_id);
      } catch (error) {
        console.warn('recheck failed for', action.action_id, error);
      }
    }
    return rechecked;
  }

  /**
   * A replayed key whose stored result was still open (accepted, unknown) answers with how the
   * action ended since, once the journal knows: the same call with the same key gives the outcome.
   * An `unknown` one (e.g. a worker killed while the page was still answering) is re-read first,
   * as the recheck alarm would, so the agent asking again need not wait for the alarm.
   */
  private async settledSince(actionId: string, stored: ActionResult): Promise<ActionResult> {
    if (isErrorResult(stored) || (stored.execution.status !== 'accepted' && stored.execution.status !== 'unknown')) return stored;
    if (stored.execution.status === 'unknown') await this.recheckOnReplay(actionId);
    const now = await this.status(actionId);
    return now?.finished && now.result ? now.result : stored;
  }

  /** At most one re-read per action every REPLAY_RECHECK_EVERY_MS, and an unresolved one is not audited: replays cannot fill the log. */
  private async recheckOnReplay(actionId: string): Promise<void> {
    const at = this.deps.clock();
    if (at - (this.replayRechecks.get(actionId) ?? -Infinity) < REPLAY_RECHECK_EVERY_MS) return;
    this.replayRechecks.set(actionId, at);
    const status = await this.recheck(actionId, { audit_unresolved: false }).catch((error: unknown) => {
      console.warn('re-reading on replay failed for', actionId, error);
      return undefined;
    });
    if (status?.finished) this.replayRechecks.delete(actionId);
  }

  /**
   * The journal's unfinished actions with their token's label (an MCP client's paired name): what
   * the visible-agent indicator is derived from (presence.ts), read from records that survive a restart.
   */
  async unfinishedActions(): Promise<Array<{ action: StoredAction; label?: string }>> {
    const actions = await this.deps.journal.unfinished();
    return Promise.all(
      actions.map(async (action) => {
        const label = (await this.deps.tokens.get(action.token_id).catch(() => undefined))?.label;
        return { action, ...(label ? { label } : {}) };
      }),
    );
  }

  /**
   * The person's Stop for one agent on one tab (Steward's indicator on the page): its cards there
   * are denied as the side panel's Deny would, with `reason`, and its actions not yet dispatched
   * there are never dispatched. One already dispatched cannot be called back, but its path is told
   * to stop what it runs (a page's WebMCP tool hears it through its abort signal, and a continued
   * call goes no further). True when anything was stopped.
   */
  async stopAgentOnTab(agentId: string, onTab: (sessionId: string | undefined) => Promise<boolean>, reason: string): Promise<boolean> {
    const mine = (await this.deps.journal.unfinished()).filter((a) => a.agent_id === agentId);
    const here: StoredAction[] = [];
    for (const a of mine) if (await onTab(a.context.session_id)) here.push(a);
    let stopped = await this.cancelDispatched(here);
    for (const a of here) {
      if (a.state === 'proposed' || a.state === 'approved') {
        this.runner.stopRequested.add(a.action_id);
        stopped = true;
      }
    }
    const waiting = new Set(here.filter((a) => a.state === 'awaiting_approval').map((a) => a.idempotency_key));
    for (const card of await this.admin.pendingApprovals()) {
      if (card.agent_id !== agentId || !waiting.has(card.idempotency_key)) continue;
      const decided = await this.admin.decide({
        request_id: card.request_id,
        decision: 'deny',
        decided_by: 'user:local',
        decided_at: new Date(this.deps.clock()).toISOString(),
        reason,
        withdrawn: 'person_stopped',
      });
      if (decided.ok) stopped = true;
    }
    return stopped;
  }

  /**
   * The co-pilot's Stop (the whole run, on any tab): each of the agent's dispatched actions still
   * running is told to stop, as Steward's Stop on the page does. True when any was running.
   */
  async stopRunning(agentId: string): Promise<boolean> {
    return this.cancelDispatched((await this.deps.journal.unfinished()).filter((a) => a.agent_id === agentId));
  }

  /** Asks each dispatched action's path to stop what it runs (Executor.cancel). */
  private async cancelDispatched(actions: readonly StoredAction[]): Promise<boolean> {
    let cancelled = false;
    for (const a of actions) {
      if (a.state !== 'dispatched' || !a.via) continue;
      const cancel = this.deps.ports.executors[a.via]?.cancel;
      if (cancel && (await cancel.call(this.deps.ports.executors[a.via], a.action_id).catch(() => false))) cancelled = true;
    }
    return cancelled;
  }

  /** Where an action stands, from the journal (what `action_id` polling answers). */
  async status(actionId: string): Promise<ActionStatus | undefined> {
    const action = await this.deps.journal.action(actionId);
    if (!action) return undefined;
    const history = await this.deps.journal.history(actionId);
    const result = [...history].reverse().find((e) => e.result)?.result;
    return { action_id: actionId, state: action.state, finished: isTerminal(action.state), ...(result ? { result } : {}) };
  }

  /** Where an action stands, only when `agentId` submitted it (an agent never reads another's actions). */
  async statusFor(agentId: string, actionId: string): Promise<ActionStatus | undefined> {
    const action = await this.deps.journal.action(actionId);
    return action?.agent_id === agentId ? this.status(actionId) : undefined;
  }

  /** The agent's unfinished actions and the resources memory remembers it working on (agent-records.ts). */
  agentRecords(agentId: string): Promise<AgentRecords> {
    return agentRecords(this.deps, agentId);
  }

  /**
   * Resuming work on a remembered resource (DESIGN §7): resolve it afresh through the navigator,
   * read its current state, and say whether memory is still current or history only.
   */
  async resume(resource: ResourceRef, agent: AgentContext): Promise<ResumeAssessment | { error: StewardError }> {
    const auth = checkToken(agent.agent_id, await this.deps.tokens.authenticate(agent.token), resource);
    if (!auth.ok) return { error: auth.error };
    const hints = await this.deps.memory.urlHints(resource);
    const ctx = { agent_id: agent.agent_id, ...(agent.session_id ? { session_id: agent.session_id } : {}) };
    let failure: StewardError | undefined;
    const assessed = await this.deps.memory.resume(resource, async (r) => {
      const reached = await reachResource(this.deps.ports, r, { allowed_origins: auth.token.origins, hints, ctx });
      if (!reached.ok) failure = reached.error;
      else if (reached.location.kind === 'tab') {
        const url = reached.observed.url.slice(0, 300);
        await this.deps.taint.mark(agent.agent_id, {
          at: this.deps.clock(),
          source: `the page ${url}`,
          said: phrase('taint_page', { url }),
          ...(agent.session_id ? { session_id: agent.session_id } : {}),
        });
      }
      return reached.ok ? reached.observed : null;
    });
    return assessed ?? { error: failure ?? makeError('TOOL_NOT_FOUND', 'The resource could not be observed.') };
  }

  /**
   * Resolves when the action's background continuation (its wait for the person, then its run)
   * has ended, or at once when it has none: callers that wait learn of the decision from this, not
   * by resubmitting the key on a timer. false when nothing was running in the background.
   * `withinMs`: give up waiting after this long (still true: something was running).
   */
  async settled(actionId: string, withinMs?: number): Promise<boolean> {
    const running = this.tracked.get(actionId);
    if (!running) return false;
    if (withinMs === undefined) await running;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]).finally(() => clearTimeout(timer));
    }
    return true;
  }

  /** Resolves when every background continuation (approval waits) has settled. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private track(p: Promise<unknown>, actionId: string): void {
    this.live.add(actionId);
    const done = p
      .catch((error) => console.error('background action failed', error))
      .finally(() => {
        this.background.delete(done);
        this.tracked.delete(actionId);
        this.live.delete(actionId);
        this.onActivity();
      });
    this.background.add(done);
    this.tracked.set(actionId, done);
  }

  /** A refusal before the action was journaled: audited (with the token's public id once known), nothing else. */
  private refuse(agent: AgentContext, error: StewardError, request?: ActionRequest, hash?: string, tokenId?: TokenId): ActionResult {
    this.auditLoose(agent, request, 'denial', { outcome: 'refused', error_code: error.code }, hash, tokenId);
    return errorResult(error);
  }

  private auditLoose(
    agent: AgentContext,
    request: ActionRequest | undefined,
    kind: 'denial' | 'proposal',
    fields: { outcome: string; error_code?: StewardError['code']; details?: Record<string, unknown> },
    hash?: string,
    tokenId?: TokenId,
  ): void {
    // The agent id comes from the service worker. What the agent presented is never written down
    // (it may be a working secret); only the public id of a token it authenticated as.
    if (!AgentId.safeParse(agent.agent_id).success) return;
    const { details: given, ...rest } = fields;
    const details = withMcpSession(given, agent.mcp_session);
    void this.deps.audit
      .append({
        kind,
        agent_id: agent.agent_id,
        ...(tokenId ? { token_id: tokenId } : {}),
        ...(request ? { idempotency_key: request.idempotency_key, action: request.action, resource: request.resource } : {}),
        ...(hash ? { input_hash: hash } : {}),
        ...rest,
        ...(details ? { details } : {}),
      })
      .catch((e) => console.error('audit append failed', e));
  }
}
