import { canonicalJson } from '../base/canonical-json.ts';
import { ActionRequest } from '../protocol/action.ts';
import { IdempotencyKey } from '../protocol/action-name.ts';
import type { ResourceRef, StateName } from '../protocol/resource.ts';
import { isErrorResult, type ActionResult } from '../protocol/results.ts';
import { parseOrError } from '../protocol/validate.ts';
import { approxTokens } from '../observation/render/index.ts';
import type { AgentPorts, ChatMessage, Observation } from './ports.ts';
import { buildPrompt, dataNonce, stateSummary, type HistoryEntry } from './prompt.ts';
import { parseStep, type ActStep, type Step } from './step-schema.ts';

/**
 * The co-pilot's loop (DESIGN §5, issue 13): observe, ask the model for one step, validate it,
 * submit it through the pipeline, feed the result back. The rails are enforced here, in code,
 * whatever the model says.
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
  /** Steps already taken before a restart (from memory): the run continues after them. */
  resume?: readonly HistoryEntry[];
}

const DEFAULTS = { max_steps: 25, time_budget_ms: 10 * 60_000, token_budget: 200_000 };
/** Same action this many times in a row, or no state change over this many steps: stuck. */
const STUCK_AFTER = 3;
const MAX_FAILURES = 3;

type StopReason = 'max_steps' | 'stuck' | 'failures' | 'time_budget' | 'token_budget' | 'ask_person';

export type RunEnd =
  | { kind: 'done'; verified: true; claim: string; evidence: string }
  | { kind: 'done'; verified: false; claim: string; why: string }
  | { kind: 'stopped'; reason: StopReason; detail: string; errors?: string[] };

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

function failureOf(r: ActionResult): string | undefined {
  if (isErrorResult(r)) return `${r.error.code}: ${r.error.message}`;
  const s = r.execution.status;
  return s === 'failed' || s === 'unknown' ? `${r.action_id} ${s}` : undefined;
}

const sameAction = (a: ActStep, b: ActStep) => canonicalJson(a.action) === canonicalJson(b.action);

type Validated = { ok: true; step: Step; request?: ActionRequest } | { ok: false; error: string };

function validate(text: string, observation: Observation, runId: string, n: number): Validated {
  const parsed = parseStep(text);
  if (!parsed.ok) return parsed;
  const step = parsed.step;
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

/** Runs `goal` step by step, yielding each step as it ends; returns how the run ended. */
export async function* runCopilot(goal: string, settings: RunSettings, ports: AgentPorts): AsyncGenerator<StepReport, RunEnd> {
  const max_steps = settings.max_steps ?? DEFAULTS.max_steps;
  const time_budget_ms = settings.time_budget_ms ?? DEFAULTS.time_budget_ms;
  const token_budget = settings.token_budget ?? DEFAULTS.token_budget;
  // A bad run id would make every step's key invalid: the caller's mistake, not the model's.
  if (!IdempotencyKey.safeParse(idempotencyKey(settings.run_id, max_steps)).success) throw new Error(`run id "${settings.run_id}" cannot form idempotency keys`);
  const nonce = dataNonce(settings.run_id);
  const history: HistoryEntry[] = [...(settings.resume ?? [])];
  const started = ports.clock();
  let tokens = 0;
  let failures: string[] = [];
  let evidence: string | undefined;
  let unchanged = 0;
  let lastVersion: string | undefined;

  const elapsed = () => ports.clock() - started;
  const stop = (reason: StopReason, detail: string, errors?: string[]): RunEnd => ({ kind: 'stopped', reason, detail, ...(errors ? { errors } : {}) });
  const ask = async (messages: ChatMessage[]): Promise<string | RunEnd> => {
    const cost = messages.reduce((sum, m) => sum + approxTokens(m.content), 0);
    if (tokens + cost > token_budget) return stop('token_budget', `the next prompt (${cost} tokens) would pass the budget of ${token_budget} (${tokens} used)`);
    const reply = await ports.complete(messages);
    tokens += cost + approxTokens(reply);
    return reply;
  };

  for (let n = history.length + 1; ; n++) {
    if (n > max_steps) return stop('max_steps', `reached the limit of ${max_steps} steps`);
    if (elapsed() > time_budget_ms) return stop('time_budget', `ran ${elapsed()} ms, over the budget of ${time_budget_ms} ms`);

    const observation = await ports.observe();
    const version = String(observation.state.state_version);
    unchanged = lastVersion === version ? unchanged + 1 : 0;
    lastVersion = version;
    if (unchanged >= STUCK_AFTER) return stop('stuck', `the state has not changed for ${STUCK_AFTER} steps; please take a look`);

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
      failures.push(`step ${n}: the model's reply was invalid twice: ${checked.error}`);
      const entry: HistoryEntry = { ...base, outcome: checked.error };
      history.push(entry);
      yield { entry, tokens_used: tokens, elapsed_ms: elapsed() };
      if (failures.length >= MAX_FAILURES) return stop('failures', `${MAX_FAILURES} failures in a row`, failures);
      continue;
    }

    const step = checked.step;
    if (step.kind === 'ask_person') return stop('ask_person', step.question);
    if (step.kind === 'done') {
      const reached =
        settings.expect && observation.state.state === settings.expect.state && (!settings.expect.resource || canonicalJson(settings.expect.resource) === canonicalJson(observation.state.resource));
      const proof = evidence ?? (reached ? `observed ${stateSummary(observation.state)}` : undefined);
      if (proof) return { kind: 'done', verified: true, claim: step.claim, evidence: proof };
      return { kind: 'done', verified: false, claim: step.claim, why: 'not verified: no confirmed or accepted action and no observed state matching the goal' };
    }

    const previous = history.slice(-(STUCK_AFTER - 1)).map((h) => h.step);
    if (previous.length === STUCK_AFTER - 1 && previous.every((p) => p?.kind === 'act' && sameAction(p, step))) {
      return stop('stuck', `the model asked for ${step.action.name} ${STUCK_AFTER} times in a row; please take a look`);
    }

    let outcome: string;
    try {
      const result = await ports.submit(checked.request!);
      outcome = canonicalJson(result);
      const failure = failureOf(result);
      if (failure) failures.push(`step ${n}: ${failure}`);
      else failures = [];
      // Reading something proves nothing about the goal: only an action that changes things counts.
      const readOnly = observation.state.actions?.find((a) => a.action === step.action.name)?.read_only ?? false;
      if (!readOnly) evidence = pipelineEvidence(result) ?? evidence;
    } catch (e) {
      outcome = `submit failed: ${e instanceof Error ? e.message : String(e)}`;
      failures.push(`step ${n}: ${outcome}`);
    }
    const entry: HistoryEntry = { ...base, step, outcome };
    history.push(entry);
    yield { entry, tokens_used: tokens, elapsed_ms: elapsed() };
    if (failures.length >= MAX_FAILURES) return stop('failures', `${MAX_FAILURES} failures in a row`, failures);
  }
}
