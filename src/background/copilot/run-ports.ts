import type { AgentPorts, Observation, Question, StepProgress } from '../../agent/ports.ts';
import type { LanguageModelClient } from '../../agent/models/model.ts';
import type { AgentContext } from '../../pipeline/agent-context.ts';
import type { ActionRequest } from '../../protocol/action.ts';
import type { ApprovalRequest } from '../../protocol/approval.ts';
import type { CopilotRunStatus, CopilotStep } from '../../protocol/copilot.ts';
import { isErrorResult, type ActionResult } from '../../protocol/results.ts';
import { renderObserved } from '../../observation/render/index.ts';
import { partialThought } from '../../agent/partial-thought.ts';
import type { ObserveOutcome } from '../ports/tab-observer.ts';
import type { RunRecord } from './run-record.ts';
import { actionOf, putStep, resultView, stepOfKey } from './step-view.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';

/**
 * The loop's ports for one run (src/agent/ports.ts), on the worker: a fresh observation of the
 * run's tab, the person's model, and the pipeline with the run's own agent id and token, exactly
 * as `agent/submit` gives any agent. The run's agent is marked tainted before the first prompt
 * (which carries page content) goes to the model, so every consequential action of the run needs
 * the person's approval. An action waiting for approval is waited for (the pipeline says when its
 * continuation ends) and then resubmitted once with its idempotency key for the result; the key
 * lets the step show the approval's id inline and a restarted worker find the same action.
 */

export interface RunPipeline {
  submit(raw: unknown, agent: AgentContext): Promise<ActionResult>;
  /** Resolves when the action's wait for the person and its run have ended; false if none was running. */
  settled(actionId: string): Promise<boolean>;
  admin: { pendingApprovals(): Promise<ApprovalRequest[]> };
}

export interface RunPortsDeps {
  pipeline: () => Promise<RunPipeline>;
  sessionFor(agentId: string, tabId: number): Promise<string>;
  taint(agentId: string, source: string, said: Phrase): Promise<void>;
  observeTab(tabId: number): Promise<ObserveOutcome>;
  /** Whether the tab still exists (an observation failing on a closed tab ends the run). */
  tabExists(tabId: number): Promise<boolean>;
  clock(): number;
  sleep(ms: number): Promise<void>;
}

/** What the ports need of the run they serve: its record, its model, and how to show a change. */
export interface RunHandle {
  record: RunRecord;
  client: LanguageModelClient;
  signal: AbortSignal;
  paused(): boolean;
  /** Persists the record and pushes it to open panels. */
  save(): Promise<void>;
  /** Pushes the run to open panels without storing it (a reply streaming in: it is worth nothing after a restart). */
  show(): void;
  /** Resolves with the person's answer to step `n`'s question (`copilot/answer`); rejects when the run ends first. */
  waitForAnswer(n: number): Promise<string>;
}

/** Thrown when the run's tab is gone: the run ends with `tab_closed`. */
export class TabClosed extends Error {
  constructor(tabId: number) {
    super(`tab ${tabId} was closed`);
    this.name = 'TabClosed';
  }
}

/** Thrown when the run's tab could not be observed, after retries: `code` and `detail` are the observation's last refusal. */
export class TabUnobserved extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`Steward could not observe the tab (${code}: ${detail})`);
    this.name = 'TabUnobserved';
  }
}

/** Thrown into the loop when the person stopped the run or took over: nothing more is done. */
export class RunAborted extends Error {
  constructor() {
    super('the run was stopped');
    this.name = 'RunAborted';
  }
}

/** How often a streaming reply is pushed to the panel at most: each token would be a message per token. */
const SHOW_EVERY_MS = 150;

/** The thought of a reply as it streams in, shown at most every SHOW_EVERY_MS (the last words always shown). */
class StreamedThought {
  private shown = '';
  private pending: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly show: (thought: string) => void) {}

  update(reply: string): void {
    const thought = partialThought(reply);
    if (thought === undefined || thought === this.shown) return;
    this.pending = thought;
    this.timer ??= setTimeout(() => this.flush(), SHOW_EVERY_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.pending === undefined) return;
    this.shown = this.pending;
    this.pending = undefined;
    this.show(this.shown);
  }

  /** The reply is whole (or failed): the step's own report replaces what was streamed. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }
}

/** Only when the gateway reports the key busy but runs nothing of it in the background (another call is running it). */
const BUSY_RETRY_MS = 500;
const OBSERVE_TRIES = 3;

export function createRunPorts(deps: RunPortsDeps, run: RunHandle, clock: () => number): AgentPorts {
  const { record } = run;
  const { agent_id, tabId } = record.run;
  let lastObservation: Observation | undefined;
  let tainted = false;

  const checkAborted = () => {
    if (run.signal.aborted) throw new RunAborted();
  };

  function setStep(n: number, change: (step: CopilotStep) => CopilotStep): void {
    const current: CopilotStep = record.run.steps.find((s) => s.n === n) ?? { n, status: 'thinking' };
    record.run.steps = putStep(record.run.steps, { ...change(current), n });
  }

  /** Until the action's background continuation ends (the person decided and it ran), or the run is stopped. */
  async function untilSettled(pipeline: RunPipeline, actionId: string | undefined): Promise<void> {
    const stopped = new Promise<boolean>((resolve) => {
      if (run.signal.aborted) resolve(true);
      run.signal.addEventListener('abort', () => resolve(true), { once: true });
    });
    const waited = actionId ? await Promise.race([pipeline.settled(actionId), stopped]) : false;
    if (!waited) await deps.sleep(BUSY_RETRY_MS);
  }

  const viaOf = (name: string) => lastObservation?.state.actions?.find((a) => a.action === name)?.via;
  const activeStatus = (): CopilotRunStatus => (run.paused() ? 'paused' : 'running');

  async function observe(): Promise<Observation> {
    let last = { code: '', message: '' };
    for (let i = 0; i < OBSERVE_TRIES; i++) {
      checkAborted();
      const r = await deps.observeTab(tabId);
      if (r.ok) {
        const { state, snapshot } = r.tab;
        const rendering = renderObserved(snapshot, state);
        lastObservation = { state, rendering, snapshot };
        return lastObservation;
      }
      if (!(await deps.tabExists(tabId))) throw new TabClosed(tabId);
      last = r.error;
      if (!r.error.retryable && i > 0) break;
      await deps.sleep(1000);
    }
    throw new TabUnobserved(last.code, last.message);
  }

  async function complete(messages: Parameters<AgentPorts['complete']>[0]): Promise<string> {
    checkAborted();
    // The prompt carries the page's content: from here on, whatever the run asks for may have been steered by it.
    if (!tainted) {
      await deps.taint(agent_id, `page content of ${record.run.origin} sent to the co-pilot's model`, phrase('taint_copilot_prompt', { origin: record.run.origin }));
      tainted = true;
    }
    const n = record.history.length + 1;
    if (!record.run.steps.some((s) => s.n === n)) {
      setStep(n, (s) => s);
      await run.save();
    }
    const streaming = new StreamedThought((thought) => {
      if (run.signal.aborted) return;
      setStep(n, (s) => (s.status === 'thinking' ? { ...s, partial: thought.slice(0, 2000) } : s));
      run.show();
    });
    try {
      return await run.client.complete(messages, run.signal, (soFar) => streaming.update(soFar));
    } finally {
      streaming.close();
    }
  }

  /** Finds the approval the gateway is waiting for on this request (after a restart the first answer was lost). */
  async function pendingApprovalFor(request: ActionRequest): Promise<string | undefined> {
    const pending = await (await deps.pipeline()).admin.pendingApprovals();
    return pending.find((a) => a.agent_id === agent_id && a.idempotency_key === request.idempotency_key)?.request_id;
  }

  async function submit(request: ActionRequest): Promise<ActionResult> {
    checkAborted();
    const n = stepOfKey(request.idempotency_key) ?? record.history.length + 1;
    // Persisted before the pipeline sees it: a worker killed from here on resubmits the same key (a replay, never a repeat).
    record.inflight = request;
    setStep(n, (s) => ({ ...s, status: 'running', action: actionOf(request, viaOf(request.action)) }));
    record.run.status = activeStatus();
    await run.save();

    const pipeline = await deps.pipeline();
    const agent: AgentContext = {
      agent_id,
      token: record.secret,
      session_id: await deps.sessionFor(agent_id, tabId),
      // The agent's own claim, which would ask the person even for reads. The runtime's taint
      // (marked before the first prompt) already puts every consequential action before the person.
      untrusted_input: false,
      // The goal the person typed in the panel: typing or opening what it says is the person's doing, not the page's.
      person_words: record.run.goal,
      wait_for_approval: false,
    };
    for (;;) {
      checkAborted();
      const result = await pipeline.submit(request, agent);
      checkAborted();
      if (isErrorResult(result) && (result.error.code === 'APPROVAL_REQUIRED' || result.error.code === 'IN_PROGRESS')) {
        const details = result.error.details as { approval_request_id?: unknown } | undefined;
        const fromResult = typeof details?.approval_request_id === 'string' ? details.approval_request_id : undefined;
        // An expired card also says APPROVAL_REQUIRED, without an id: that is the action's end.
        if (result.error.code === 'APPROVAL_REQUIRED' && !fromResult) return finishStep(n, result);
        // The card's id comes with the first answer; later (and after a restart) the pending queue says whether it still waits.
        await showApproval(n, fromResult ?? (await pendingApprovalFor(request)));
        await untilSettled(pipeline, result.action_id);
        continue;
      }
      return finishStep(n, result);
    }
  }

  /** The step waits for the person on this card, or (no card) runs now that the person decided. */
  async function showApproval(n: number, approval: string | undefined): Promise<void> {
    // An ended run is the run manager's to show: a late answer must not bring it back to life.
    if (run.signal.aborted) return;
    const current = record.run.steps.find((s) => s.n === n);
    if (approval) {
      if (current?.status === 'awaiting_approval' && current.approval_id === approval) return;
      setStep(n, (s) => ({ ...s, status: 'awaiting_approval', approval_id: approval }));
      record.run.status = run.paused() ? 'paused' : 'awaiting_approval';
    } else {
      if (current?.status !== 'awaiting_approval') return;
      setStep(n, (s) => {
        const next: CopilotStep = { ...s, status: 'running' };
        delete next.approval_id;
        return next;
      });
      record.run.status = activeStatus();
    }
    await run.save();
  }

  async function finishStep(n: number, result: ActionResult): Promise<ActionResult> {
    if (run.signal.aborted) return result;
    setStep(n, (s) => {
      const next: CopilotStep = { ...s, ...resultView(result) };
      delete next.approval_id;
      return next;
    });
    record.run.status = activeStatus();
    await run.save();
    return result;
  }

  function progress(event: StepProgress): void {
    if (run.signal.aborted) return;
    if (event.phase === 'thinking') setStep(event.n, (s) => ({ ...s, n: event.n, status: 'thinking' }));
    else
      setStep(event.n, (s) =>
        // A request resubmitted after a restart keeps the thought it was shown with.
        s.action?.idempotency_key === event.request.idempotency_key && s.thought !== undefined
          ? { ...s, status: 'running' }
          : { ...s, status: 'running', thought: event.thought.slice(0, 2000), expect: event.expect.slice(0, 2000), action: actionOf(event.request, viaOf(event.request.action)) },
      );
    if (event.phase === 'submitting') record.inflight = event.request;
    void run.save();
  }

  /** The question is shown in the step, with the answer box; the run waits, without a deadline, until the person answers or stops it. */
  async function askPerson(question: Question): Promise<string> {
    checkAborted();
    setStep(question.n, (s) => {
      const next: CopilotStep = { ...s, status: 'awaiting_answer', thought: question.thought.slice(0, 2000), question: question.question.slice(0, 2000) };
      delete next.partial;
      return next;
    });
    record.run.status = run.paused() ? 'paused' : 'awaiting_answer';
    const waiting = run.waitForAnswer(question.n);
    await run.save();
    return waiting;
  }

  return { observe, complete, submit, clock, progress, askPerson };
}
