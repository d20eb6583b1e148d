import type { ApprovalReason, ApprovalReceipt, BoundForm } from '../protocol/approval.ts';
import type { ActRefusalPhrase } from '../protocol/act-refusal.ts';
import type { Policy } from '../protocol/managed-policy.ts';
import { PageErrorDetails, type PageToolError } from '../protocol/page-tool-error.ts';
import { makeError, type StewardError } from '../protocol/errors.ts';
import type { JournalState } from '../protocol/journal.ts';
import type { SiteResource, StateVersion } from '../protocol/resource.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { errorResult, isErrorResult, type ActionErrorResult, type ActionResult } from '../protocol/results.ts';
import type { DelegatedAgentToken } from '../protocol/token.ts';
import type { StoredAction } from '../storage/action-record.ts';
import type { AvailableAction } from '../protocol/action.ts';
import type { ToolDescriptor } from '../protocol/webmcp.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { IdempotencyStore } from '../storage/idempotency-store.ts';
import type { JournalStore } from '../storage/journal-store.ts';
import type { TokenStore } from '../storage/token-store.ts';
import type { ApprovalQueue } from './approvals.ts';
import { AuditTrail } from './audit-trail.ts';
import { resolveCapability, type Capability } from './capability.ts';
import { iso, type Clock } from '../base/clock.ts';
import { PAGE_DEADLINES } from '../protocol/deadlines.ts';
import { withDeadline } from '../base/deadline.ts';
import { dispatch } from './execution/router.ts';
import { declaredEffect } from './declared-effect.ts';
import { boundForm, expectedFormValues } from './form-binding.ts';
import type { MemoryResolver } from './memory-resolver.ts';
import { reachResource } from './navigator.ts';
import { checkToken, type GatewayDecision, type PolicyGateway } from './policy/gateway.ts';
import { originOf } from '../base/origin.ts';
import { actsOn, otherResource, sendsTo, type ActsOn } from './acts-on.ts';
import { PriorSteps, describeElement, elementPhrase } from './prior-steps.ts';
import { agentName } from './presence.ts';
import { resourceScopeCovers } from '../protocol/resource.ts';
import type { ExecutionReport, Location, PipelinePorts, PortContext } from './ports.ts';
import { settleFromSite } from './site-status.ts';
import { checkPreconditions } from './preconditions.ts';
import type { ReceiptBinding } from '../storage/receipt-binding.ts';
import type { TaintLedger } from './taint.ts';
import { siteContentIn, siteContentSaid } from '../protocol/site-content.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';
import { quietSinkReasons } from './policy/quiet-sinks.ts';
import { controlKey, controlLabel, controlLabelParts, firstWrite, type WrittenControls } from './written-controls.ts';
import type { Stopwatch } from './timings.ts';
import { partsMet, verifyOutcome } from './verify.ts';

export interface PipelineDeps {
  tokens: TokenStore;
  approvals: ApprovalQueue;
  idempotency: IdempotencyStore;
  journal: JournalStore;
  audit: AuditLog;
  memory: MemoryResolver;
  gateway: PolicyGateway;
  ports: PipelinePorts;
  clock: Clock;
  /** Which agents have been given page-derived content (taint.ts). */
  taint: TaintLedger;
  /** Controls whose harmless-looking action wrote, per site (written-controls.ts); none remembered when absent. */
  written?: WrittenControls;
  /** Reloads state kept outside the stores above (the rate limiter's counters) before recovery. */
  restore?: () => Promise<void>;
  /** The organisation's managed policy now (src/protocol/managed-policy.ts); none when absent. */
  policy?: () => Policy;
}

/** One action on its way through the pipeline. */
export interface ActionRun {
  action: StoredAction;
  /** Absent only when recovery finds the token deleted: such a run can only be ended. */
  token: DelegatedAgentToken | undefined;
  sw: Stopwatch;
  trail: AuditTrail;
  ctx: PortContext;
  /** Page content had reached the agent before this action's latest observation (taint.ts). */
  tainted?: boolean;
  /** The person's own words for the task, when Steward knows them (AgentContext.person_words); not persisted. */
  person_words?: string;
}

/** After steps 3–7: where the resource is, what it looks like now, how the action would run, and the gateway's verdict. */
export interface Plan {
  observed: ObservedState;
  location: Location;
  origin: string;
  capability: Capability;
  decision: Exclude<GatewayDecision, { kind: 'refuse' }>;
  /** A click in a form: the values bound into its approval, checked again at the click. */
  form?: BoundForm;
  /** What the input acts on, or that nothing names it (acts-on.ts): the card's and the audit's resource. */
  acts_on: ActsOn;
  /** A form whose values go to another origin: that origin, for the card. */
  sends_to?: string;
}

type Step<T> = { ok: true; value: T } | { ok: false; result: ActionErrorResult };

/** The receipt of an approval the person gave: what an approved action runs under. */
export type ReceiptRef = Pick<ApprovalReceipt, 'receipt_id'>;
/** The action ended (done, refused, or denied): the result for the agent. */
export interface Ended {
  kind: 'ended';
  result: ActionResult;
}
/** The action waits for the person's decision on the card `request_id`. */
export interface AwaitingDecision {
  kind: 'awaiting_decision';
  request_id: string;
  reasons: ApprovalReason['code'][];
}
export type RunOutcome = Ended | AwaitingDecision;

/** The acted-on resource as the audit keeps it: `order:ORD-7002`, or `not known: …`. */
function actsOnWords(a: ActsOn): string {
  return a.known ? `${a.resource.type}:${a.resource.id}` : `not known: ${a.basis}`.slice(0, 300);
}

/** Journal state for each kind of ending. */
function terminalFor(result: ActionResult): JournalState {
  if (isErrorResult(result)) return result.error.code === 'APPROVAL_DENIED' ? 'denied' : 'failed';
  switch (result.execution.status) {
    case 'confirmed':
      return 'confirmed';
    case 'accepted':
      return 'pending_confirmation';
    case 'failed':
      return 'failed';
    case 'unknown':
      return 'unknown';
  }
}

/**
 * The steps of DESIGN §5 for one journaled action (3–9), run once by `run()` for every path: a
 * fresh action from submit(), an action the person approved, and an approved action recovery
 * finds after a restart. It also ends actions (`stop`) and resolves dispatched ones by re-reading
 * (`resolveDispatched`). Waiting for the person, and what runs in the background, is the Pipeline's.
 */
export class ActionRunner {
  /** Each agent's last DOM step: a card that answers the page's confirmation shows it too. */
  private readonly priorSteps = new PriorSteps();
  /** Actions the person stopped (Steward's Stop on the page) before they were dispatched: never dispatched. */
  readonly stopRequested = new Set<string>();

  constructor(readonly deps: PipelineDeps) {}

  newRun(action: StoredAction, token: DelegatedAgentToken | undefined, sw: Stopwatch): ActionRun {
    return {
      action,
      token,
      sw,
      trail: new AuditTrail(this.deps.audit, action),
      ctx: { agent_id: action.agent_id, action_id: action.action_id, ...(action.context.session_id ? { session_id: action.context.session_id } : {}) },
    };
  }

  /**
   * Steps 3–9, once for every path: locate, assess, then execute — after consuming a receipt when
   * the gateway asks for approval, or queueing a card for the person when there is none.
   * Without `approved` the action is fresh (from submit): its observation is audited, the quota
   * counted, a form held by another card refused, and a receipt the agent presented consumed.
   * With `approved` the person has approved it (just now, or before a restart): time has passed,
   * so the token is re-checked and the state re-read, and the receipt's binding is checked against
   * the fresh state before it is dispatched, at most once.
   */
  run(run: ActionRun): Promise<RunOutcome>;
  run(run: ActionRun, approved: ReceiptRef): Promise<Ended>;
  async run(run: ActionRun, approved?: ReceiptRef): Promise<RunOutcome> {
    const end = async (result: ActionResult | Promise<ActionResult>): Promise<Ended> => ({ kind: 'ended', result: await result });
    if (approved) {
      const token = checkToken(run.action.agent_id, await this.deps.tokens.check(run.action.token_id), run.action.request.resource);
      if (!token.ok) return end(this.stop(run, errorResult(token.error, { action_id: run.action.action_id })));
      run.token = token.token;
    }
    const located = await this.locate(run);
    if (!located.ok) return end(this.stop(run, located.result));
    const { observed, location, route } = located.value;
    if (!approved) {
      run.trail.step('observation', {
        outcome: 'observed',
        state_version_before: observed.state_version,
        // The site the action meets (the Activity view filters by it).
        details: { route, origin: new URL(observed.url).origin, source: observed.source, confidence: observed.confidence, conflicts: observed.conflicts },
      });
    }
    const wrote = await this.wroteBefore(observed, run.action.request.input.ref);
    const planned = this.assess(run, observed, location, !approved, wrote);
    if (!planned.ok) return end(this.stop(run, planned.result));
    const plan = planned.value;
    if (!approved) {
      const held = await this.formHeld(run);
      if (held) return end(this.stop(run, held));
    }
    if (plan.decision.kind === 'allow') return end(this.execute(run, plan, approved?.receipt_id));

    // Needs approval: the person's receipt, one the agent already holds, or a card for the side panel.
    const receiptId = approved?.receipt_id ?? run.action.request.approval?.receipt_id;
    if (!receiptId) return this.queueCard(run, plan, plan.decision.reasons);
    const check = await this.deps.approvals.consume(receiptId, await this.binding(run, plan));
    if (!check.ok) return end(this.stop(run, this.receiptRefused(run, check.problem, check.message, observed)));
    if (!approved) run.trail.step('approval', { receipt_id: receiptId, outcome: 'receipt_accepted', state_version_before: observed.state_version });
    return end(this.execute(run, plan, receiptId));
  }

  /** Step 7 without a receipt: the action waits (`awaiting_approval`) for the person's decision on a card. */
  private async queueCard(run: ActionRun, plan: Plan, asked: ApprovalReason[]): Promise<AwaitingDecision> {
    const { action } = run;
    const target = plan.capability.dom?.target;
    const tied = this.priorSteps.tie(action.agent_id, { origin: plan.origin, now: this.deps.clock(), ...(target ? { target } : {}), reasons: asked });
    const why = tied.reasons;
    const reasons = why.map((r) => r.code);
    const form = await this.bindForm(run, plan);
    await this.deps.journal.transition(action.action_id, 'awaiting_approval', { state_version: plan.observed.state_version, note: `needs approval: ${reasons.join(', ')}` });
    const card = await this.deps.approvals.enqueue({
      action_id: action.action_id,
      agent_id: action.agent_id,
      agent_name: agentName(action.agent_id, run.token?.label),
      token_id: action.token_id,
      origin: plan.origin,
      request: action.request,
      via: plan.capability.description.via,
      ...(target ? { target: describeElement(target), target_said: elementPhrase(target) } : {}),
      input_hash: action.input_hash,
      observed: plan.observed,
      reasons: why,
      ...(action.context.session_id ? { session_id: action.context.session_id } : {}),
      ...(form ? { form } : {}),
      acts_on: plan.acts_on,
      ...(plan.sends_to ? { sends_to: plan.sends_to } : {}),
      ...(tied.prior ? { prior_step: tied.prior } : {}),
    });
    run.trail.step('approval_request', {
      outcome: 'queued',
      state_version_before: plan.observed.state_version,
      details: { request_id: card.request_id, reasons, acts_on: actsOnWords(plan.acts_on), ...(plan.sends_to ? { sends_to: plan.sends_to } : {}) },
    });
    return { kind: 'awaiting_decision', request_id: card.request_id, reasons };
  }

  /** Steps 3–4: memory hints, then the navigator reaches and freshly observes the resource. */
  private async locate(run: ActionRun, opts: { may_navigate?: boolean } = {}): Promise<Step<{ observed: ObservedState; location: Location; route: string }>> {
    const { ports, memory } = this.deps;
    const resource = run.action.request.resource;
    const token = run.token;
    if (!token) return { ok: false, result: errorResult(makeError('TOKEN_INVALID', 'The agent token is gone.'), { action_id: run.action.action_id }) };
    const hints = await memory.urlHints(resource);
    // Read before this observation: what the agent knew when it asked is what steered the request.
    run.tainted = (await this.deps.taint.taintOf(run.action.agent_id)) !== undefined;
    const reached = await run.sw.outside(() => reachResource(ports, resource, { allowed_origins: token.origins, hints, ctx: run.ctx, ...opts }));
    if (!reached.ok) return { ok: false, result: errorResult(reached.error, { action_id: run.action.action_id }) };
    await this.atSite(run, reached.resource);
    // Whatever this action returns now carries the page (state, actions, element names, tool output).
    if (reached.location.kind === 'tab' && !run.tainted) {
      const url = reached.observed.url.slice(0, 300);
      await this.markTainted(run, `the page ${url}`, phrase('taint_page', { url }));
    }
    return { ok: true, value: { observed: reached.observed, location: reached.location, route: reached.route } };
  }

  /** Steps 5–7: preconditions against the fresh state, capability, then the policy gateway. */
  private assess(run: ActionRun, observed: ObservedState, location: Location, countQuota = true, wrote?: ApprovalReason): Step<Plan> {
    const { request } = run.action;
    const fail = (error: StewardError, extra: Partial<ActionErrorResult> = {}) => ({ ok: false as const, result: errorResult(error, { action_id: run.action.action_id, ...extra }) });
    if (!run.token) return fail(makeError('TOKEN_INVALID', 'The agent token is gone.'));
    // The agent's preconditions first: "it has shipped" says more than "cancel is not offered".
    const pre = checkPreconditions(request, observed, run.action.action_id);
    if (pre) return { ok: false, result: pre };
    const cap = resolveCapability(request, observed, this.deps.ports.executors);
    if (!cap.ok) return fail(cap.error, cap.available_actions ? { available_actions: cap.available_actions } : {});
    const origin = originOf(location.kind === 'contract' ? location.url : observed.url);
    if (!origin) return fail(makeError('SCOPE_DENIED', 'Refused: the resource is not on an http(s) origin.'));
    const extra = quietSinkReasons({
      action: request.action,
      input: request.input,
      observed,
      ...(cap.capability.dom?.target ? { target: cap.capability.dom.target } : {}),
      tainted: run.tainted === true,
      ...(run.person_words ? { person_words: run.person_words } : {}),
    });
    if (wrote) extra.push(wrote);
    const decision = this.deps.gateway.evaluate({
      agent_id: run.action.agent_id,
      token: run.token,
      request,
      description: cap.capability.description,
      origin,
      untrusted_input: run.action.context.untrusted_input,
      tainted: run.tainted === true,
      ...(cap.capability.dom ? { dom: cap.capability.dom } : {}),
      ...(extra.length ? { extra } : {}),
      now: this.deps.clock(),
      count_quota: countQuota,
    });
    if (decision.kind === 'refuse') return fail(decision.error);
    // The token must cover what the input really acts on, not only the resource the request names.
    const acting = actsOn(request, cap.capability.description, observed);
    const other = otherResource(request, acting);
    if (other && !resourceScopeCovers(run.token.resource_scope, other)) {
      return fail(
        makeError('SCOPE_DENIED', `Refused: the input acts on ${other.type} ${other.id} (${acting.basis}), which the token does not cover (${run.token.resource_scope}).`, {
          details: { acts_on: other, resource_scope: run.token.resource_scope },
        }),
      );
    }
    const to = sendsTo(request, observed);
    return { ok: true, value: { observed, location, origin, capability: cap.capability, decision, acts_on: acting, ...(to ? { sends_to: to } : {}) } };
  }

  /** A click in a form: the form's values as observed now, kept on the plan for the card and the executor. */
  private async bindForm(run: ActionRun, plan: Plan): Promise<BoundForm | undefined> {
    plan.form = await boundForm(run.action.request, plan.observed);
    return plan.form;
  }

  /** What a receipt must match for this plan (with the form's values for a click in a form). */
  private async binding(run: ActionRun, plan: Plan): Promise<ReceiptBinding> {
    const form = await this.bindForm(run, plan);
    return {
      action_id: run.action.action_id,
      action: run.action.request.action,
      resource: run.action.request.resource,
      input_hash: run.action.input_hash,
      state_version: plan.observed.state_version,
      agent_id: run.action.agent_id,
      token_id: run.action.token_id,
      via: plan.capability.description.via,
      reasons: plan.decision.kind === 'needs_approval' ? plan.decision.reasons.map((r) => r.code) : [],
      ...(form ? { form_hash: form.hash } : {}),
    };
  }

  /**
   * The resource is the one found on this site (origin, type, id): the journal records it (a
   * request that named no site is bound to this one from now on, across restarts), and the
   * card, the receipt, the executor, memory and the audit name it from here on.
   */
  private async atSite(run: ActionRun, resource: SiteResource): Promise<void> {
    if (run.action.request.resource.origin === undefined) await this.deps.journal.pinOrigin(run.action.action_id, resource.origin);
    run.action = { ...run.action, request: { ...run.action.request, resource } };
    run.trail.atSite(resource);
  }

  /**
   * What the site's remembered writes say of the control the action's `ref` names in this
   * observation (written-controls.ts): a reason for the card, or nothing. One look-up per action.
   */
  private async wroteBefore(observed: ObservedState, ref: unknown): Promise<ApprovalReason | undefined> {
    const written = this.deps.written;
    const origin = originOf(observed.url);
    const target = typeof ref === 'string' ? observed.elements?.find((e) => e.ref === ref) : undefined;
    const key = target ? controlKey(target, observed) : undefined;
    if (!written || !origin || !key) return undefined;
    const w = await written.find(origin, key).catch(() => undefined);
    if (!w) return undefined;
    return {
      code: 'not_read_only',
      detail: `on ${w.origin}, using the ${w.label} before sent a request that may have written (${w.request.method} ${w.request.url}); Steward treats it as consequential from then on`,
      // The control's role and name beside its label, so the panel words the role in the person's language.
      detail_said: phrase('reason_wrote_before', { origin: w.origin, control: w.label, method: w.request.method, url: w.request.url, ...controlLabelParts(w.label) }),
    };
  }

  /** A DOM action that set off a write: its control is remembered for the site (every agent's next use waits for the person). */
  private async rememberWrites(plan: Plan, result: ActionResult): Promise<void> {
    const target = plan.capability.dom?.target;
    if (!this.deps.written || !target || isErrorResult(result)) return;
    const request = firstWrite(result.observed_changes?.requests);
    const key = controlKey(target, plan.observed);
    if (!request || !key) return;
    await this.deps.written.remember({ origin: plan.origin, control: key, label: controlLabel(target), request, at: this.deps.clock() });
  }

  private async markTainted(run: ActionRun, source: string, said: Phrase): Promise<void> {
    await this.deps.taint.mark(run.action.agent_id, { at: this.deps.clock(), source, said, ...(run.action.context.session_id ? { session_id: run.action.context.session_id } : {}) });
  }

  /**
   * While a card of this session waits with a form's values on it, the session's DOM actions on
   * that form are refused (the person must approve what will be sent, not what was there).
   */
  private async formHeld(run: ActionRun): Promise<ActionErrorResult | undefined> {
    const { action, input } = run.action.request;
    if (!FORM_EDITING_ACTIONS.has(action) || typeof input.ref !== 'string') return undefined;
    const hold = await this.deps.approvals.formHold(run.action.context.session_id, input.ref, run.action.action_id);
    if (!hold) return undefined;
    return errorResult(
      makeError(
        'IN_PROGRESS',
        `Refused: element ${input.ref} belongs to a form whose values are on an approval card (${hold.action}) waiting in Steward's side panel; changing the form now would change what the person is approving.`,
        {
          retry_after_ms: 1000,
          recovery_hint: 'Wait until the person has decided on that card, then retry; to send other values, let that card be denied or expire and ask again.',
          details: { approval_request_id: hold.request_id, form_ref: hold.form_ref },
        },
      ),
      { action_id: run.action.action_id },
    );
  }

  /**
   * Ends an action that stopped before dispatch or was decided against: journal, audit, and
   * the idempotency key (released when nothing ran, so the agent may retry; kept for a denial).
   */
  async stop(run: ActionRun, result: ActionErrorResult, keepKey = false): Promise<ActionResult> {
    const to = terminalFor(result);
    await this.deps.journal.transition(run.action.action_id, to, { error_code: result.error.code, note: result.error.message, result });
    // The person's Stop (before dispatch, or withdrawing the card) is theirs, as a Deny is, but not a Deny: the log keeps them apart.
    const stoppedBy = result.error.details?.stopped_by;
    const outcome = typeof stoppedBy === 'string' ? 'stopped' : result.error.details?.withdrawn === 'run_ended' ? 'withdrawn' : to === 'denied' ? 'denied' : 'refused';
    const auditId = await run.trail.finish(to === 'denied' ? 'denial' : 'failure', {
      outcome,
      error_code: result.error.code,
      // A denial says why (the person's reason, or the co-pilot run whose end withdrew the card).
      ...(to === 'denied' || typeof stoppedBy === 'string' ? { details: { message: result.error.message, ...(typeof stoppedBy === 'string' ? { stopped_by: stoppedBy } : {}) } } : {}),
    });
    const final: ActionResult = auditId ? { ...result, audit_receipt: auditId } : result;
    if (keepKey) await this.deps.idempotency.complete(run.action.agent_id, run.action.idempotency_key, run.action.action_id, final);
    else await this.deps.idempotency.release(run.action.agent_id, run.action.idempotency_key, run.action.action_id);
    return final;
  }

  private receiptRefused(run: ActionRun, problem: string, message: string, observed: ObservedState): ActionErrorResult {
    return errorResult(
      makeError('APPROVAL_REQUIRED', `The approval cannot be used: ${message}.`, {
        recovery_hint: 'Request a new approval for this exact action, input and current state.',
        details: { receipt_problem: problem },
      }),
      {
        action_id: run.action.action_id,
        current: { state: observed.state, state_version: observed.state_version, source: observed.source },
      },
    );
  }

  /** Steps 8–9: journal `dispatched`, execute on the chosen path, re-observe, verify, record. */
  private async execute(run: ActionRun, plan: Plan, receiptId?: string): Promise<ActionResult> {
    const { journal, ports, clock } = this.deps;
    const { action } = run;
    const via = plan.capability.description.via;
    if (receiptId) run.trail.useReceipt(receiptId);
    // Every path re-checks the token last: it may have been revoked or expired while the state was read.
    const current = checkToken(action.agent_id, await this.deps.tokens.check(action.token_id), action.request.resource);
    if (!current.ok) {
      const error = makeError(current.error.code, `${current.error.message} Checked right before dispatch; nothing was done.`, { details: { checked: 'before_dispatch' } });
      return this.stop(run, errorResult(error, { action_id: action.action_id }));
    }
    run.token = current.token;
    if (this.stopRequested.delete(action.action_id)) {
      const error = makeError('EXECUTION_FAILED', `The person stopped ${action.request.action} before it was dispatched; nothing was done.`, {
        retryable: false,
        recovery_hint: 'The person pressed Stop: ask them before trying again.',
        details: { stopped_by: 'user:local' },
      });
      return this.stop(run, errorResult(error, { action_id: action.action_id }));
    }
    // No record, no side effect: the dispatch (and every step before it) is in the audit log first.
    const recorded = await run.trail
      .record('dispatch', { state_version_before: plan.observed.state_version, ...(receiptId ? { receipt_id: receiptId } : {}), outcome: 'dispatched', details: { via } })
      .then(
        () => true,
        () => false,
      );
    if (!recorded)
      return this.stop(
        run,
        errorResult(makeError('AUDIT_UNAVAILABLE', `Steward could not write ${action.request.action} to its audit log, so it was not dispatched.`), { action_id: action.action_id }),
      );
    // Written before the executor is called: after a kill, recovery knows it may have happened,
    // and what to look for (a contract site's action is settled by the site instead).
    const declared = via === 'site_contract' ? undefined : declaredEffect(action.request.resource.type, plan.capability.description);
    await journal.transition(action.action_id, 'dispatched', {
      via,
      state_version: plan.observed.state_version,
      state_version_before: plan.observed.state_version,
      ...(receiptId ? { receipt_id: receiptId } : {}),
      ...(declared ? { declared_effect: declared } : {}),
    });
    const executedAt = iso(clock());
    const report = await run.sw.outside(() =>
      dispatch(
        {
          action_id: action.action_id,
          action: action.request.action,
          resource: action.request.resource,
          input: action.request.input,
          idempotency_key: action.idempotency_key,
          via,
          description: plan.capability.description,
          ...(plan.capability.tool ? { tool: plan.capability.tool } : {}),
          agent_id: action.agent_id,
          token_id: action.token_id,
          ...(receiptId ? { receipt_id: receiptId } : {}),
          ...(receiptId && plan.form ? { form: expectedFormValues(plan.form) } : {}),
          ...(plan.capability.dom?.target && action.request.input.ref === undefined ? { target_ref: plan.capability.dom.target.ref } : {}),
          location: plan.location,
          ctx: run.ctx,
          observed: { url: plan.observed.url, state_version: plan.observed.state_version },
          ...(run.token ? { allowed_origins: run.token.origins } : {}),
        },
        ports.executors,
      ),
    );
    if (plan.capability.dom) {
      const target = plan.capability.dom.target;
      this.priorSteps.note(action.agent_id, { action: action.request.action, ...(target ? { target } : {}), at: clock(), origin: plan.origin, before: plan.observed.elements ?? [] });
    }
    return this.settle(run, report, executedAt, {
      location: plan.location,
      description: plan.capability.description,
      ...(plan.capability.tool ? { tool: plan.capability.tool } : {}),
      before: () => plan.observed,
      state_version_before: plan.observed.state_version,
      remember: (result) => this.rememberWrites(plan, result),
    });
  }

  /**
   * After a service-worker restart: a dispatched action whose path can still finish it (a page's
   * WebMCP tool that asked to continue in its next document, its token still waiting) is taken up
   * again, never run again from the start: it ends when its path's run ends, verified as if the
   * worker had never stopped. undefined when its path holds nothing for it (recovery then re-reads).
   */
  async resumeDispatched(run: ActionRun): Promise<{ ended: Promise<ActionResult> } | undefined> {
    const { action } = run;
    const executor = action.via ? this.deps.ports.executors[action.via] : undefined;
    if (!executor?.resume) return undefined;
    // A revoked or expired token finishes nothing: the action is resolved by re-reading instead.
    const auth = checkToken(action.agent_id, await this.deps.tokens.check(action.token_id), action.request.resource);
    if (!auth.ok) return undefined;
    run.token = auth.token;
    const resumed = await executor
      .resume({
        action_id: action.action_id,
        action: action.request.action,
        input: action.request.input,
        idempotency_key: action.idempotency_key,
        ctx: run.ctx,
        allowed_origins: auth.token.origins,
      })
      .catch((error: unknown) => {
        console.warn('taking up a dispatched action after the restart failed', action.action_id, error);
        return undefined;
      });
    if (!resumed) return undefined;
    const { planned } = resumed;
    const ended = resumed.ended
      .catch((error: unknown): ExecutionReport => ({ outcome: 'failed', message: error instanceof Error ? error.message : String(error), side_effect_possible: true }))
      .then((report) =>
        this.settle(run, report, iso(this.deps.clock()), {
          location: { kind: 'tab' },
          description: planned.description,
          ...(planned.tool ? { tool: planned.tool } : {}),
          // The observation it was planned on stayed with the stopped worker; what the journal and
          // the chain kept of it (its address and state_version) stand for it beside the page seen now.
          before: (after) =>
            after ? { ...after, url: planned.observed?.url ?? after.url, state_version: action.state_version_before ?? planned.observed?.state_version ?? after.state_version } : undefined,
          ...(action.state_version_before !== undefined ? { state_version_before: action.state_version_before } : {}),
          resumed: true,
        }),
      );
    // Wrapped: a promise resolved with a promise would be awaited through, and recovery must not wait for the page.
    return { ended };
  }

  /** Step 9 for a dispatched action: re-observe, verify the path's report, then journal, audit, remember and answer the key. */
  private async settle(run: ActionRun, report: ExecutionReport, executedAt: string, how: Settling): Promise<ActionResult> {
    const { journal, ports, idempotency, memory } = this.deps;
    const { action } = run;
    const via = how.description.via;
    const after = await run.sw.outside(() => withDeadline(ports.observe(how.location, action.request.resource, run.ctx), PAGE_DEADLINES.execution_ms, 're-observing').catch(() => null));
    const expect = (report.outcome === 'completed' ? report.expect : undefined) ?? action.context.expect;
    const before = how.before(after);
    const result = before
      ? verifyOutcome({
          action_id: action.action_id,
          request: action.request,
          description: how.description,
          ...(how.tool ? { tool: how.tool } : {}),
          report,
          before,
          after,
          ...(expect ? { expect } : {}),
          executed_at: executedAt,
        })
      : unobserved(action, via, report, executedAt);
    // What the site answered reaches the agent: its free text, a tool's output, what a page showed (siteContentIn).
    const carried = siteContentIn(result);
    if (carried) await this.markTainted(run, carried.text, siteContentSaid(carried, false));
    await how.remember?.(result).catch(() => undefined);
    const to = terminalFor(result);
    const after_version = isErrorResult(result) ? result.current?.state_version : result.resource.state_version;
    // An unknown or failed outcome may say why (TIMEOUT, EXECUTION_FAILED): the journal and the audit keep that code too.
    const error_code = isErrorResult(result) ? result.error.code : result.execution.status === 'unknown' || result.execution.status === 'failed' ? result.execution.error?.code : undefined;
    await journal.transition(action.action_id, to, {
      result,
      ...(after_version !== undefined ? { state_version: after_version } : {}),
      ...(error_code ? { error_code } : {}),
      ...(how.resumed ? { note: 'taken up again after a service-worker restart' } : {}),
    });
    const kind = to === 'confirmed' ? 'confirmation' : to === 'pending_confirmation' ? 'acceptance' : 'failure';
    const memoryWrite = memory.recordOutcome({
      resource: action.request.resource,
      agent_id: action.agent_id,
      ...(action.context.session_id ? { session_id: action.context.session_id } : {}),
      action_id: action.action_id,
      action: action.request.action,
      outcome: to,
      after,
    });
    const auditId = await run.trail.finish(kind, {
      outcome: isErrorResult(result) ? 'failed' : `${result.execution.status}_${result.execution.certainty}`,
      ...(how.state_version_before !== undefined ? { state_version_before: how.state_version_before } : {}),
      ...(after_version !== undefined ? { state_version_after: after_version } : {}),
      ...(error_code ? { error_code } : {}),
      details: { via, ...pageErrorFor(result), ...refusalSaidFor(result), ...writesFor(result), ...(how.resumed ? { resumed_after_restart: true } : {}) },
    });
    const final: ActionResult = auditId ? { ...result, audit_receipt: auditId } : result;
    await Promise.all([idempotency.complete(action.agent_id, action.idempotency_key, action.action_id, final), memoryWrite.catch(() => undefined)]);
    return final;
  }

  /**
   * Resolves an action that was dispatched but whose outcome is not known (killed mid-flight,
   * accepted and pending, or unknown) by re-reading the resource — never by executing again.
   * The effect observed → confirmed; otherwise `dispatched` becomes `unknown` and
   * `pending_confirmation` / `unknown` stay as they are, to be re-checked later. Nobody asked for
   * this just now, so it never navigates a tab, and it reads nothing once the agent's token is
   * revoked or expired. `audit_unresolved: false`: a re-read that found nothing new is not
   * audited (an agent's replays ask for these; the pipeline bounds how often).
   */
  async resolveDispatched(run: ActionRun, options: { audit_unresolved?: boolean } = {}): Promise<{ to: JournalState | 'unchanged'; result?: ActionResult }> {
    const { action } = run;
    const auth = checkToken(action.agent_id, await this.deps.tokens.check(action.token_id), action.request.resource);
    if (!auth.ok && action.state !== 'dispatched') return { to: 'unchanged' };
    // A site that accepted an action is the only one who can say it is done: its status endpoint,
    // never a re-read state (which moved when it accepted).
    if (action.via === 'site_contract' && action.state === 'pending_confirmation') return settleFromSite(run, this.deps);
    const reading = { ...run, token: auth.ok ? auth.token : undefined };
    const located = auth.ok ? await this.locate(reading, { may_navigate: false }) : undefined;
    const after = located?.ok ? located.value.observed : null;
    const before = action.state_version_before;
    const changed = after !== null && before !== undefined && after.state_version !== before;
    // Only an expected effect, observed, settles it: the agent's, or the one the action declares.
    // A change alone proves nothing here (the page may have changed for another reason, or the
    // call did something else), as for a call that timed out (verify.ts).
    const expect = action.context.expect ?? action.declared_effect;
    let certainty: 'confirmed' | 'inferred' | 'unknown' = 'unknown';
    if (after && expect) certainty = partsMet(expect, after, action.request).every(Boolean) ? (changed ? 'confirmed' : 'inferred') : 'unknown';

    const resource = { ...reading.action.request.resource, ...(after ? { state: after.state, state_version: after.state_version } : {}) };
    const at = iso(this.deps.clock());
    let result: ActionResult;
    let to: JournalState | 'unchanged';
    if (certainty !== 'unknown' && after) {
      result = { action_id: action.action_id, resource, source: action.via, execution: { status: 'confirmed', certainty, executed_at: at, verified_by: 'postcondition' } };
      to = 'confirmed';
    } else if (action.state === 'dispatched') {
      result = { action_id: action.action_id, resource, execution: { status: 'unknown', certainty: 'unknown' } };
      to = 'unknown';
    } else {
      if (options.audit_unresolved !== false) {
        await run.trail.finish('recovery', { outcome: 'still_unresolved', ...(after ? { state_version_after: after.state_version } : {}), details: { state: action.state } });
      }
      return { to: 'unchanged' };
    }
    await this.deps.journal.transition(action.action_id, to, { result, ...(after ? { state_version: after.state_version } : {}), note: 'resolved by re-reading the resource state' });
    const auditId = await run.trail.finish('recovery', {
      outcome: to === 'confirmed' ? `confirmed_${certainty}` : 'unknown',
      ...(before !== undefined ? { state_version_before: before } : {}),
      ...(after ? { state_version_after: after.state_version } : {}),
      details: { resolved_from: action.state },
    });
    const final: ActionResult = auditId ? { ...result, audit_receipt: auditId } : result;
    await this.deps.idempotency.complete(action.agent_id, action.idempotency_key, action.action_id, final);
    return { to, result: final };
  }
}

/** How a dispatched action is verified (ActionRunner.settle): where it is re-read, its capability, and what it was planned on. */
interface Settling {
  location: Location;
  description: AvailableAction;
  tool?: ToolDescriptor;
  /** The observation it was planned on, given what is observed after it (undefined: none to compare with). */
  before: (after: ObservedState | null) => ObservedState | undefined;
  state_version_before?: StateVersion;
  /** Called with the result before it is journaled (a DOM step's controls that wrote). */
  remember?: (result: ActionResult) => Promise<void>;
  /** Taken up again after a service-worker restart (resumeDispatched): the journal and audit say so. */
  resumed?: true;
}

/**
 * A call taken up after a restart whose page could not be observed at its end: nothing confirms
 * it, so its outcome is unknown (with what the page's tool answered, as data), to be re-read later.
 */
function unobserved(action: StoredAction, via: AvailableAction['via'], report: ExecutionReport, executedAt: string): ActionResult {
  const r = action.request.resource;
  const output = report.outcome === 'completed' && report.output ? { output: { ...report.output, untrusted: true } } : {};
  const why = report.outcome === 'failed' || report.outcome === 'timed_out' ? { error: makeError(report.outcome === 'timed_out' ? 'TIMEOUT' : 'EXECUTION_FAILED', report.message.slice(0, 4096)) } : {};
  return {
    action_id: action.action_id,
    resource: { ...(r.origin ? { origin: r.origin } : {}), type: r.type, id: r.id },
    source: via,
    ...output,
    execution: { status: 'unknown', certainty: 'unknown', executed_at: executedAt, ...why },
  };
}

/** DOM actions that edit or submit a form: refused while that form's values wait on an approval card. */
const FORM_EDITING_ACTIONS: ReadonlySet<string> = new Set(['dom.type', 'dom.select', 'dom.click', 'dom.press', 'dom.check', 'dom.drag']);

/**
 * The requests a DOM action set off that may have written, for the audit: a control Steward judged
 * read-only that wrote is flagged there too, not only in the agent's result.
 */
function writesFor(result: ActionResult): { writes?: Array<{ method: string; url: string; status?: number }>; read_only_wrote?: true } {
  if (isErrorResult(result)) return {};
  const c = result.observed_changes;
  if (!c?.requests?.length) return {};
  return {
    writes: c.requests.slice(0, 8).map((r) => ({ method: r.method, url: r.url.slice(0, 300), ...(r.status !== undefined ? { status: r.status } : {}) })),
    ...(c.read_only_wrote ? { read_only_wrote: true as const } : {}),
  };
}

/** The page's own words when its tool failed (bounded, marked as the page's): the Activity view shows why. */
/** Why the page step was refused, as the person's panel says it (act-refusal.ts): the audit keeps it beside the code, so Activity can say it in their language. */
function refusalSaidFor(result: ActionResult): { said?: ActRefusalPhrase } {
  return isErrorResult(result) && result.error_said !== undefined ? { said: result.error_said } : {};
}

function pageErrorFor(result: ActionResult): { page_error?: PageToolError } {
  if (isErrorResult(result) || (result.execution.status !== 'failed' && result.execution.status !== 'unknown')) return {};
  const said = PageErrorDetails.safeParse(result.execution.error?.details);
  return said.success && said.data.page_error ? { page_error: said.data.page_error } : {};
}
