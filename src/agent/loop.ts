import { z } from 'zod';
import { canonicalJson } from '../base/canonical-json.ts';
import { ActionRequest, describesRequest, type AvailableAction } from '../protocol/action.ts';
import { IdempotencyKey } from '../protocol/action-name.ts';
import type { CopilotEnd, ModelError } from '../protocol/copilot.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';
import type { ResourceRef, StateName } from '../protocol/resource.ts';
import { forAgents, isErrorResult, type ActionResult } from '../protocol/results.ts';
import { parseOrError } from '../protocol/validate.ts';
import { approxTokens } from '../observation/render/index.ts';
import { ModelFailure } from './models/model.ts';
import type { AgentPorts, ChatMessage, Observation } from './ports.ts';
import { HistoryEntry } from './history.ts';
import { buildPrompt, dataNonce, stateSummary } from './prompt.ts';
import { readProblem, readTarget, runRead } from './read.ts';
import { outputWithinBudget } from '../protocol/webmcp-budgets.ts';
import { redactSecrets } from './redact.ts';
import { parseStep, type ActStep, type Step } from './step-schema.ts';

/**
 * The co-pilot's loop (DESIGN §5, issue 13): observe, ask the model for one step, validate it,
 * submit it through the pipeline (or read the snapshot), feed the result back. The rails are
 * enforced here, in code, whatever the model says.
 */

export interface RunSettings {
  /** Stable across a worker restart: the idempotency keys are derived from it. */
  run_id: string;
  max_steps?: number;
  time_budget_ms?: number;
  /** Prompt and reply tokens of the whole run (≈ characters / 4). */
  token_budget?: number;
  /** What the goal looks like when reached, if known: the objective evidence for `done`. */
  expect?: { resource?: ResourceRef; state: StateName };
  /** Steps already taken before a restart (from memory, validated with `HistoryEntry`): the run continues after them. */
  resume?: readonly HistoryEntry[];
  /**
   * A request submitted before a worker restart whose result never came back: re-submitted first,
   * unchanged (same idempotency key, so the pipeline replays its stored result instead of running
   * it again), and recorded as the next step.
   */
  inflight?: ActionRequest;
  /** Aborting ends the run before its next phase; `signal.reason` may name why (`taken_over`, `tab_closed`). */
  signal?: AbortSignal;
}

const DEFAULTS = { max_steps: 25, time_budget_ms: 10 * 60_000, token_budget: 200_000 };
/** Same step this many times in a row, or no state change over this many steps: stuck. */
const STUCK_AFTER = 3;
const MAX_FAILURES = 3;
/** Reads are cheap but change nothing: past this many the model must act, finish or ask. */
const MAX_READS = 8;

type StopReason = Extract<CopilotEnd, { kind: 'stopped' }>['reason'];

export type RunEnd =
  | { kind: 'done'; verified: true; claim: string; evidence: string }
  | { kind: 'done'; verified: false; claim: string; why: string; why_said?: Phrase }
  /** `detail_said`: the detail as a phrase, for the panel to say in the person's language (the model and the journal get `detail`). */
  | { kind: 'stopped'; reason: StopReason; detail: string; detail_said?: Phrase; errors?: string[]; errors_said?: Phrase[]; model_error?: ModelError };

/** What the caller may pass as `signal.reason`; anything else reads as the person's Stop. */
const ABORT_DETAIL = {
  stopped_by_person: 'stopped by the person',
  taken_over: 'the person took over; the tab is left as it is',
  tab_closed: 'the tab was closed',
} as const satisfies Partial<Record<StopReason, string>>;
type AbortReason = keyof typeof ABORT_DETAIL;

/** What the loop reports after each step, live. */
export interface StepReport {
  entry: HistoryEntry;
  tokens_used: number;
  elapsed_ms: number;
}

/** Deterministic per (run, step): a restarted run re-submitting step n replays, never re-runs. */
function idempotencyKey(runId: string, n: number): string {
  return `${runId}.step-${n}`;
}

/** The pipeline's evidence that an action took effect (confirmed, or accepted and pending). */
function pipelineEvidence(r: ActionResult): string | undefined {
  if (isErrorResult(r)) return undefined;
  const s = r.execution.status;
  if (s !== 'confirmed' && s !== 'accepted') return undefined;
  return `${r.action_id} ${s} (${r.execution.certainty})${r.resource.state ? `, ${r.resource.type} ${r.resource.id} is ${r.resource.state}` : ''}`;
}

/** A step's failure: the English the run's end lists, and the same for the panel (without the step number, added when it is listed). */
interface Failure {
  text: string;
  said: (step: number) => Phrase;
}

function failureOf(r: ActionResult): Failure | undefined {
  if (isErrorResult(r)) {
    // A DOM step the page refused says why (the control is covered, disabled…); any other refusal by its code. The code stays in the English.
    const act = r.error_said;
    return { text: `${r.error.code}: ${r.error.message}`, said: (step) => (act ? phrase('failure_act_refused', { step, ...act.params }) : phrase('failure_refused', { step, code: r.error.code })) };
  }
  const s = r.execution.status;
  return s === 'failed' || s === 'unknown' ? { text: `${r.action_id} ${s}`, said: (step) => phrase('failure_site', { step, action_id: r.action_id, status: s }) } : undefined;
}

/** What makes two steps "the same" for the stuck rail: the action with its input, or the read's target. */
function sameness(step: Step | undefined): string | undefined {
  if (step?.kind === 'act') return `act ${canonicalJson(step.action)}`;
  if (step?.kind === 'read') return `read ${readTarget(step)}`;
  return undefined;
}

type Validated = { ok: true; step: Step; request?: ActionRequest } | { ok: false; error: string };

function validate(text: string, observation: Observation, runId: string, n: number): Validated {
  const parsed = parseStep(text);
  if (!parsed.ok) return parsed;
  const step = parsed.step;
  if (step.kind === 'read') {
    const problem = readProblem(step);
    return problem ? { ok: false, error: problem } : { ok: true, step };
  }
  if (step.kind !== 'act') return { ok: true, step };
  const request = parseOrError(
    ActionRequest,
    {
      action: step.action.name,
      resource: step.action.resource ?? observation.state.resource,
      input: step.action.input,
      idempotency_key: idempotencyKey(runId, n),
      rationale: step.thought || undefined,
    },
    { what: 'action' },
  );
  if (!request.ok) return { ok: false, error: `${request.error.message} [${request.error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}]` };
  return { ok: true, step, request: request.value };
}

/** The step a re-submitted in-flight request stands for in the history. */
function inflightStep(request: ActionRequest): ActStep {
  return {
    kind: 'act',
    thought: request.rationale ?? '',
    action: { name: request.action, resource: request.resource, input: request.input },
    expect: 'the result of the step under way when the worker restarted',
  };
}

interface Submitted {
  outcome: string;
  untrusted: boolean;
  evidence?: string;
  failure?: Failure;
  /** The page changed in a way the state's version ignores by design (a form field filled in). */
  progress?: true;
  /** The person denied the action's approval: their decision, which ends the run. */
  denied?: true;
}

/** Filling a field (typing, choosing, ticking, moving a slider) or opening a menu changes only the form or what is shown (no state version moves), yet it is a step forward. */
const FIELD_ACTIONS = new Set(['dom.type', 'dom.select', 'dom.check', 'dom.drag', 'dom.press', 'dom.hover']);

/** The observed description of what `request` does; DOM actions share a name, so their target ref decides. */
function describedAction(observation: Observation, request: ActionRequest): AvailableAction | undefined {
  return observation.state.actions?.find((a) => describesRequest(a, request));
}

/** Submits through the pipeline; the outcome is what the model and the panel get (secrets redacted). */
async function submitAction(ports: AgentPorts, request: ActionRequest, described: AvailableAction | undefined): Promise<Submitted> {
  try {
    const result = await ports.submit(request);
    const untrusted = (described?.untrusted_content ?? false) || (!isErrorResult(result) && result.output?.untrusted === true);
    // Reading something proves nothing about the goal: only an action that changes things counts.
    const evidence = described?.read_only ? undefined : pipelineEvidence(result);
    const progress = evidence !== undefined || (FIELD_ACTIONS.has(request.action) && pipelineEvidence(result) !== undefined);
    const denied = isErrorResult(result) && result.error.code === 'APPROVAL_DENIED';
    return {
      // The model's copy of a tool's output is within Chrome's budget; the journal and the panel keep it whole.
      outcome: redactSecrets(canonicalJson(!isErrorResult(result) && result.output ? { ...result, output: outputWithinBudget(result.output) } : forAgents(result))),
      untrusted,
      ...(evidence ? { evidence } : {}),
      ...(failureOf(result) ? { failure: failureOf(result) } : {}),
      ...(progress ? { progress: true as const } : {}),
      ...(denied ? { denied: true as const } : {}),
    };
  } catch (e) {
    const outcome = redactSecrets(`submit failed: ${e instanceof Error ? e.message : String(e)}`);
    return { outcome, untrusted: false, failure: { text: outcome, said: (step) => phrase('failure_submit', { step }) } };
  }
}

/** The person said no to the action: the run ends there; the model does not look for a way around their decision. */
function deniedEnd(request: ActionRequest): RunEnd {
  const on = request.resource ? ` on ${request.resource.type} ${request.resource.id}` : '';
  return {
    kind: 'stopped',
    reason: 'denied_by_person',
    detail: `You denied ${request.action}${on}, so the co-pilot stopped there.`,
    detail_said: phrase('run_denied', { action: request.action, ...(request.resource ? { type: request.resource.type, id: request.resource.id } : {}) }),
  };
}

/** Runs `goal` step by step, yielding each step as it ends; returns how the run ended. */
export async function* runCopilot(goal: string, settings: RunSettings, ports: AgentPorts): AsyncGenerator<StepReport, RunEnd> {
  const max_steps = settings.max_steps ?? DEFAULTS.max_steps;
  const time_budget_ms = settings.time_budget_ms ?? DEFAULTS.time_budget_ms;
  const token_budget = settings.token_budget ?? DEFAULTS.token_budget;
  // A bad run id would make every step's key invalid: the caller's mistake, not the model's.
  if (!IdempotencyKey.safeParse(idempotencyKey(settings.run_id, max_steps)).success) throw new Error(`run id "${settings.run_id}" cannot form idempotency keys`);
  const nonce = dataNonce(settings.run_id);
  const remembered = z.array(HistoryEntry).safeParse(settings.resume ?? []);
  if (!remembered.success) throw new Error(`the remembered history is not valid: ${remembered.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const history: HistoryEntry[] = remembered.data;
  const started = ports.clock();
  let tokens = 0;
  /** The failures in a row, as the run's end lists them (English, and the panel's phrase). */
  let failures: { text: string; said: Phrase }[] = [];
  let evidence = history.findLast((h) => h.evidence)?.evidence;
  let reads = history.filter((h) => h.step?.kind === 'read').length;
  let unchanged = 0;
  let lastVersion: string | undefined;
  let afterRead = false;
  /** The last step moved things on even though the state's version did not change (see Submitted.progress). */
  let progressed = false;

  const elapsed = () => ports.clock() - started;
  const report = (entry: HistoryEntry): StepReport => ({ entry, tokens_used: tokens, elapsed_ms: elapsed() });
  const stop = (reason: StopReason, detail: string, said?: Phrase): RunEnd => ({
    kind: 'stopped',
    reason,
    detail,
    ...(said ? { detail_said: said } : {}),
  });
  const tooManyFailures = (): RunEnd => ({
    kind: 'stopped',
    reason: 'failures',
    detail: `${MAX_FAILURES} failures in a row`,
    detail_said: phrase('run_failures', { count: MAX_FAILURES }),
    errors: failures.map((f) => f.text),
    errors_said: failures.map((f) => f.said),
  });
  const aborted = (): RunEnd | undefined => {
    const signal = settings.signal;
    if (!signal?.aborted) return undefined;
    const reason: AbortReason = typeof signal.reason === 'string' && signal.reason in ABORT_DETAIL ? (signal.reason as AbortReason) : 'stopped_by_person';
    return stop(reason, ABORT_DETAIL[reason]);
  };
  const ask = async (messages: ChatMessage[]): Promise<string | RunEnd> => {
    const cut = aborted();
    if (cut) return cut;
    const cost = messages.reduce((sum, m) => sum + approxTokens(m.content), 0);
    if (tokens + cost > token_budget)
      return stop(
        'token_budget',
        `the next prompt (${cost} tokens) would pass the budget of ${token_budget} (${tokens} used)`,
        phrase('run_token_budget', { cost, budget: token_budget, used: tokens }),
      );
    let reply: string;
    try {
      reply = await ports.complete(messages, settings.signal);
    } catch (e) {
      const cut = aborted();
      if (cut) return cut;
      if (e instanceof ModelFailure) return { kind: 'stopped', reason: 'model_error', detail: e.message, model_error: e.error };
      throw e;
    }
    tokens += cost + approxTokens(reply);
    return reply;
  };
  const record = (submitted: Submitted, n: number) => {
    // The person's "no" is a decision, not one of the model's failures.
    if (submitted.denied) return;
    if (submitted.failure) failures.push({ text: `step ${n}: ${submitted.failure.text}`, said: submitted.failure.said(n) });
    else failures = [];
    evidence = submitted.evidence ?? evidence;
    progressed = submitted.progress === true;
  };
  const entryOf = (base: { n: number; state: string }, step: Step, s: Submitted): HistoryEntry => ({
    ...base,
    step,
    outcome: s.outcome,
    ...(s.untrusted ? { untrusted: true } : {}),
    ...(s.evidence ? { evidence: s.evidence } : {}),
  });

  if (settings.inflight) {
    const cut = aborted();
    if (cut) return cut;
    const n = history.length + 1;
    const request = settings.inflight;
    const observation = await ports.observe();
    const step = inflightStep(request);
    const cutBeforeSubmit = aborted();
    if (cutBeforeSubmit) return cutBeforeSubmit;
    ports.progress?.({ n, phase: 'submitting', request, thought: step.thought, expect: step.expect });
    const submitted = await submitAction(ports, request, describedAction(observation, request));
    record(submitted, n);
    const entry = entryOf({ n, state: `${stateSummary(observation.state)} (after a restart)` }, step, submitted);
    history.push(entry);
    yield report(entry);
    if (submitted.denied) return deniedEnd(request);
    if (failures.length >= MAX_FAILURES) return tooManyFailures();
  }

  for (let n = history.length + 1; ; n++) {
    if (n > max_steps) return stop('max_steps', `reached the limit of ${max_steps} steps`, phrase('run_max_steps', { max: max_steps }));
    const ran = elapsed();
    if (ran > time_budget_ms) return stop('time_budget', `ran ${ran} ms, over the budget of ${time_budget_ms} ms`, phrase('run_time_budget', { elapsed_ms: ran, budget_ms: time_budget_ms }));
    const cut = aborted();
    if (cut) return cut;

    const observation = await ports.observe();
    const version = String(observation.state.state_version);
    // A read changes nothing by design: it neither counts as a stalled step nor resets the count.
    unchanged = lastVersion === version && !progressed ? (afterRead ? unchanged : unchanged + 1) : 0;
    lastVersion = version;
    afterRead = false;
    progressed = false;
    if (unchanged >= STUCK_AFTER) return stop('stuck', `the state has not changed for ${STUCK_AFTER} steps; please take a look`, phrase('run_stuck_state', { steps: STUCK_AFTER }));

    ports.progress?.({ n, phase: 'thinking' });
    const messages = buildPrompt({ goal, nonce, history, observation });
    let reply = await ask(messages);
    if (typeof reply !== 'string') return reply;
    let checked = validate(reply, observation, settings.run_id, n);
    if (!checked.ok) {
      const retry = await ask([...messages, { role: 'assistant', content: reply }, { role: 'user', content: `That reply was rejected: ${checked.error}\nReply again with one valid JSON object.` }]);
      if (typeof retry !== 'string') return retry;
      reply = retry;
      checked = validate(reply, observation, settings.run_id, n);
    }

    const base = { n, state: stateSummary(observation.state) };
    if (!checked.ok) {
      failures.push({ text: `step ${n}: the model's reply was invalid twice: ${checked.error}`, said: phrase('failure_invalid_reply', { step: n }) });
      const entry: HistoryEntry = { ...base, outcome: checked.error };
      history.push(entry);
      yield report(entry);
      if (failures.length >= MAX_FAILURES) return tooManyFailures();
      continue;
    }

    const step = checked.step;
    if (step.kind === 'ask_person') {
      if (!ports.askPerson) return stop('ask_person', step.question);
      let answer: string;
      try {
        answer = await ports.askPerson({ n, question: step.question, thought: step.thought }, settings.signal);
      } catch (e) {
        const cut = aborted();
        if (cut) return cut;
        throw e;
      }
      // Waiting changes nothing on the page: like a read, it neither counts as a stalled step nor resets the count.
      afterRead = true;
      const entry: HistoryEntry = { ...base, step, outcome: answer };
      history.push(entry);
      yield report(entry);
      continue;
    }
    if (step.kind === 'done') {
      const reached =
        settings.expect && observation.state.state === settings.expect.state && (!settings.expect.resource || canonicalJson(settings.expect.resource) === canonicalJson(observation.state.resource));
      const proof = evidence ?? (reached ? `observed ${stateSummary(observation.state)}` : undefined);
      if (proof) return { kind: 'done', verified: true, claim: step.claim, evidence: proof };
      return {
        kind: 'done',
        verified: false,
        claim: step.claim,
        why: 'not verified: no confirmed or accepted action and no observed state matching the goal',
        why_said: phrase('run_done_unverified'),
      };
    }

    const same = sameness(step);
    const previous = history.slice(-(STUCK_AFTER - 1)).map((h) => sameness(h.step));
    if (previous.length === STUCK_AFTER - 1 && previous.every((p) => p === same)) {
      const what = step.kind === 'act' ? `asked for ${step.action.name}` : `read ${readTarget(step)}`;
      const said = step.kind === 'act' ? phrase('run_stuck_act', { action: step.action.name, times: STUCK_AFTER }) : phrase('run_stuck_read', { target: readTarget(step), times: STUCK_AFTER });
      return stop('stuck', `the model ${what} ${STUCK_AFTER} times in a row; please take a look`, said);
    }

    if (step.kind === 'read') {
      reads++;
      afterRead = true;
      const outcome = reads > MAX_READS ? `read limit reached (${MAX_READS} per run): act, finish or ask the person` : redactSecrets(runRead(step, observation.snapshot));
      const entry: HistoryEntry = { ...base, step, outcome };
      history.push(entry);
      yield report(entry);
      continue;
    }

    const abortedBeforeSubmit = aborted();
    if (abortedBeforeSubmit) return abortedBeforeSubmit;
    const request = checked.request!;
    ports.progress?.({ n, phase: 'submitting', request, thought: step.thought, expect: step.expect });
    const submitted = await submitAction(ports, request, describedAction(observation, request));
    // A submit that ends because the person stopped the run (e.g. while it awaited approval) is their stop, not a failure.
    const abortedDuringSubmit = submitted.failure?.text.startsWith('submit failed') ? aborted() : undefined;
    if (abortedDuringSubmit) return abortedDuringSubmit;
    record(submitted, n);
    const entry = entryOf(base, step, submitted);
    history.push(entry);
    yield report(entry);
    if (submitted.denied) return deniedEnd(request);
    if (failures.length >= MAX_FAILURES) return tooManyFailures();
  }
}
