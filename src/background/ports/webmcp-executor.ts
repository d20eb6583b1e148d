import type { ExecutionCall, ExecutionReport, Executor, PortContext, ResumeCall, ResumedExecution } from '../../pipeline/ports.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';
import type { Reply } from '../../protocol/channel.ts';
import { newRunId, type ContinuationBook, type ContinuationChain } from '../../webmcp/continuations.ts';
import { PAGE_DEADLINES, type PageDeadlines } from '../../protocol/deadlines.ts';
import type { FrameTools, ToolRunOutcome } from '../../protocol/webmcp.ts';
import type { SendToFrame } from '../core/messenger.ts';
import { pageDeadlines } from '../core/page-deadlines.ts';
import { PageErrorDetails, toolTimeoutMessage } from '../../protocol/page-tool-error.ts';
import type { TabObserver } from './tab-observer.ts';
import { watchTab, type TabEvents } from './tab-wait.ts';

/**
 * The WebMCP path: the page's own tool, run in the agent's tab through the existing
 * `content/run-tool` message (native `executeTool`, or the polyfill over the private port). The
 * input was validated against the tool's schema by the capability check. A declarative form
 * without `toolautosubmit` is filled and then waits for the person to submit it: that is
 * reported as accepted (pending), never as done — the pipeline's dispatch() enforces it too.
 *
 * The call goes to the document whose tools were observed, and only to it (Chrome's documentId,
 * as the DOM path pins its document token): a tab that navigated since — to another page or
 * another site offering a tool of the same name — is refused, never run. The document's origin,
 * as Chrome reported it, is re-checked against the token's origins. The page has a deadline: no
 * answer in time is `timed_out` (the tool may have run), never a wait for ever.
 *
 * Continuations (src/webmcp/continuations.ts): a run whose tool asked for a continuation token is
 * not the end of the call. The call stays dispatched while the page moves on; the document that
 * redeems the token (same tab, same origin, in time) runs the next link, and the call ends with
 * the first link that asks for none: its answer (after what the earlier links said) is the
 * call's. The person's Stop (`cancel`) aborts the running link's signal in the page and revokes
 * the token, and the call ends as stopped. The book keeps the chain across a service-worker
 * restart: a restarted pipeline's recovery takes the call up again (`resume`) at its wait for the
 * next document, and the chain's end is the action's, as if the worker had never stopped.
 */

export interface WebMcpDeps {
  tabOf(ctx: PortContext): Promise<number | undefined>;
  send: SendToFrame;
  /** The tab's last observation: the document whose tools the plan saw. */
  observer: Pick<TabObserver, 'last'>;
  /** The tab's top frame as its content script last reported it (Chrome's sender: document id, origin). */
  topFrame(tabId: number): Promise<Pick<FrameTools, 'documentId' | 'origin' | 'url'> | undefined>;
  /** How long to wait for a form that waits for the user before reporting it as pending. */
  formWaitMs?: number;
  /** The tab's load events: a form that submits itself may navigate, and the result page is what verifies it. */
  tabs?: TabEvents;
  deadlines?: Pick<PageDeadlines, 'tool_run_ms' | 'reply_grace_ms'> & Partial<Pick<PageDeadlines, 'execution_ms'>>;
  /** The calls' continuation chains, shared with the pages' asks (content-reports.ts); none: no continuations. */
  continuations?: ContinuationBook;
}

/** What a link is sent: the tool's name and the agent's input (the first link's tool descriptor says whether a form waits for the person). */
type LinkCall = Pick<ExecutionCall, 'action' | 'input'> & Partial<Pick<ExecutionCall, 'tool'>>;

/** One link of a call: the run sent to one document (the first link: the planned page's tool; then a resumed callback). */
interface Link {
  run_id: string;
  frameId: number;
  documentId?: string | undefined;
  /** The token this document redeemed (resumed links only). */
  token?: string;
}

/** A link's report; `gone`: its document went away before answering (a page that navigates after asking for a token does). */
interface LinkResult {
  report: ExecutionReport;
  gone?: true;
}

const TOP_FRAME = 0;
/** Errors the page reports before running anything. */
const NOT_RUN = new Set(['TOOL_NOT_FOUND', 'INVALID_INPUT']);
/** The messenger's refusals for an answer that says nothing of what the page did. */
const UNKNOWN_ANSWER = new Set(['INVALID_REPLY', 'NO_CONTENT_SCRIPT']);
const withoutHash = (u: string) => u.split('#')[0];
/** How soon after its run a self-submitting form's navigation must start to be waited for. */
const FORM_NAVIGATION_START_MS = 1_500;

/** Nothing was sent: the tool the agent was shown is not on the page the tab shows now. */
const refused = (message: string): ExecutionReport => ({ outcome: 'failed', code: 'TOOL_NOT_FOUND', message, side_effect_possible: false });

export function webmcpExecutor(deps: WebMcpDeps): Executor {
  const deadlines = deps.deadlines ?? pageDeadlines;

  /** Sends one link of the call to its document: the tool itself (the first), or the callback that resumed it. */
  function sendLink(call: LinkCall, tabId: number, link: Link): Promise<Reply<ToolRunOutcome>> {
    const options = { ...(link.documentId ? { documentId: link.documentId } : {}), deadline_ms: deadlines.tool_run_ms + deadlines.reply_grace_ms };
    if (link.token) {
      return deps.send(tabId, link.frameId, 'content/run-resumed', { name: call.action, token: link.token, input: call.input, run_id: link.run_id, deadline_ms: deadlines.tool_run_ms }, options);
    }
    return deps.send(tabId, link.frameId, 'content/run-tool', { name: call.action, input: call.input, deadline_ms: deadlines.tool_run_ms, run_id: link.run_id }, options);
  }

  /** Sends one link and reads its answer. */
  async function runLink(call: LinkCall, tabId: number, link: Link): Promise<LinkResult> {
    const waitsForUser = !link.token && call.tool?.kind === 'declarative' && call.tool.autosubmit !== true;
    const run = sendLink(call, tabId, link);
    // A form left waiting may reject long after we answered; that must not be an unhandled rejection.
    run.catch(() => undefined);
    let raw: unknown;
    try {
      if (waitsForUser) {
        const pending = Symbol('pending');
        const first = await Promise.race([run, new Promise((r) => setTimeout(() => r(pending), deps.formWaitMs ?? 1_500))]);
        // Filled, and now waiting for the person: pending, not done.
        if (first === pending) return { report: { outcome: 'accepted' } };
        raw = first;
      } else raw = await run;
    } catch (error) {
      // The content script's own deadline should have answered first; this one holds even if it cannot.
      if (error instanceof DeadlineExceeded) return { report: { outcome: 'timed_out', message: toolTimeoutMessage(deadlines.tool_run_ms) } };
      return { report: { outcome: 'failed', message: `the page could not be reached: ${error instanceof Error ? error.message : String(error)}`, side_effect_possible: true }, gone: true };
    }
    const reply = raw as Awaited<typeof run>;
    if (!reply.ok && UNKNOWN_ANSWER.has(reply.error.code)) {
      return {
        report: { outcome: 'failed', message: 'the page answered with something that is not a tool result', side_effect_possible: true },
        ...(reply.error.code === 'NO_CONTENT_SCRIPT' ? { gone: true as const } : {}),
      };
    }
    // The messenger's own refusal (the site gate) reads like the page's: nothing was run.
    const outcome: ToolRunOutcome = reply.ok ? reply.data : reply;
    if (!outcome.ok && outcome.error.code === 'TIMEOUT') return { report: { outcome: 'timed_out', message: outcome.error.message.slice(0, 3500) } };
    if (!outcome.ok) {
      // The page's own words, if its tool threw or said it failed: bounded by the schema, data only.
      const said = PageErrorDetails.safeParse(outcome.error.details);
      const pageError = outcome.error.code === 'EXECUTION_FAILED' && said.success ? said.data.page_error : undefined;
      return {
        report: {
          outcome: 'failed',
          message: `${outcome.error.code}: ${outcome.error.message}`.slice(0, 3500),
          side_effect_possible: !NOT_RUN.has(outcome.error.code),
          ...(pageError ? { page_error: pageError } : {}),
        },
      };
    }
    // A page's tool output is page data, never instructions, whether or not the tool says so.
    return { report: { outcome: 'completed', output: { text: outcome.result, truncated: outcome.truncated, untrusted: true } } };
  }

  /**
   * Runs the call's links: the first on the pinned document (none when a restarted worker takes the
   * call up: it starts at the wait for the next document), then, as long as a link asked for a
   * continuation token, the callback of the document that redeemed it. Ends with the first link
   * that asked for none, or when the chain cannot go on (the token expired, the person stopped it,
   * a link failed).
   */
  async function runChain(call: LinkCall, tabId: number, first: Link | undefined, chain: ContinuationChain | undefined): Promise<ExecutionReport> {
    const endBy = chain?.ends_by ?? Date.now() + (deadlines.execution_ms ?? PAGE_DEADLINES.execution_ms) - deadlines.reply_grace_ms;
    let link = first;
    for (;;) {
      if (!link) {
        if (!chain) return notResumed(0);
        const next = await chain.redemption(Math.max(0, endBy - Date.now()));
        if ('ended' in next) return next.ended === 'cancelled' ? stoppedByPerson(chain.runs) : notResumed(chain.runs);
        link = { run_id: newRunId(), frameId: next.frameId, documentId: next.documentId, token: next.token };
      }
      chain?.started(link.run_id, link.documentId);
      const { report, gone } = await runLink(call, tabId, link);
      chain?.settled(link.run_id);
      if (chain?.cancelled) return stoppedByPerson(chain.runs);
      const token = chain?.tokenOf(link.run_id);
      if (!chain || !token) return afterEarlierLinks(report, chain?.said ?? []);
      // Asked to go on elsewhere: what it said so far is partial. A failure it reported, or no answer in time, ends the call.
      if (report.outcome === 'timed_out' || (report.outcome === 'failed' && !gone)) return report;
      if (report.outcome === 'completed' && report.output?.text) await chain.heard(report.output.text);
      link = undefined;
    }
  }

  return {
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const tabId = await deps.tabOf(call.ctx);
      if (tabId === undefined) return { outcome: 'failed', message: "the agent's tab is gone", side_effect_possible: false };
      const pinned = pinnedDocument(call, deps.observer.last(tabId), await deps.topFrame(tabId));
      if ('refused' in pinned) return refused(pinned.refused);
      // A form that submits itself may leave the page for its result page, which answers nothing
      // (native or polyfill alike): unless the page answered, wait for that load, so the
      // re-observation sees the result page.
      const watch = call.tool?.kind === 'declarative' && call.tool.autosubmit === true && deps.tabs ? watchTab(deps.tabs, tabId) : undefined;
      const chain = deps.continuations?.open({
        action_id: call.action_id,
        idempotency_key: call.idempotency_key,
        tabId,
        origin: pinned.origin,
        tool: call.action,
        planned: { description: call.description, ...(call.tool ? { tool: call.tool } : {}), ...(call.observed ? { observed: call.observed } : {}) },
        ends_by: Date.now() + (deadlines.execution_ms ?? PAGE_DEADLINES.execution_ms) - deadlines.reply_grace_ms,
      });
      try {
        const report = await runChain(call, tabId, { run_id: newRunId(), frameId: TOP_FRAME, documentId: pinned.documentId }, chain);
        const answered = report.outcome === 'completed' && typeof report.output?.text === 'string';
        if (watch && (watch.navigated || !answered)) await watch.settled(FORM_NAVIGATION_START_MS);
        return report;
      } finally {
        watch?.dispose();
        if (chain) await deps.continuations?.close(chain);
      }
    },

    /** After a restart: the call whose chain a stopped worker left waiting for its next document goes on from that wait. */
    async resume(call: ResumeCall): Promise<ResumedExecution | undefined> {
      const book = deps.continuations;
      const chain = await book?.adopt(call.action_id, call.idempotency_key);
      if (!book || !chain) return undefined;
      const ended = runChain(call, chain.tabId, undefined, chain).finally(() => book.close(chain));
      return { planned: chain.planned, ended };
    },

    /** The person's Stop while the call runs: the running link's signal aborts in the page, and no later document may continue it. */
    async cancel(actionId: string): Promise<boolean> {
      const chain = deps.continuations?.chainOf(actionId);
      if (!chain?.live) return false;
      const running = chain.running();
      chain.cancel();
      if (running) {
        await deps.send(chain.tabId, TOP_FRAME, 'content/cancel-tool', { run_id: running.run_id }, running.documentId ? { documentId: running.documentId } : {}).catch(() => undefined);
      }
      return true;
    },
  };
}

/** What the earlier links of a continued call said comes before the last link's answer (all of it is the page's, data only). */
function afterEarlierLinks(report: ExecutionReport, said: readonly string[]): ExecutionReport {
  if (said.length === 0 || report.outcome !== 'completed') return report;
  const last = report.output?.text;
  const text = [...said, ...(typeof last === 'string' ? [last] : [])].join('\n');
  return { ...report, output: { text, truncated: report.output?.truncated ?? false, untrusted: true } };
}

/** The person pressed Stop while the call ran: the page was told (its tool's signal), and it may have done part of its work. */
function stoppedByPerson(links: number): ExecutionReport {
  const where = links > 1 ? ` (in its ${ordinal(links)} document)` : '';
  return { outcome: 'failed', message: `the person stopped it while the page's tool ran${where}; the page was told through the tool's abort signal`, side_effect_possible: true };
}

/** The tool asked to go on in the next document, and none did in time: the call may have done part of its work. */
function notResumed(links: number): ExecutionReport {
  return {
    outcome: 'timed_out',
    message: `The page's tool asked to continue in its next document (continuation token, after ${links} ${links === 1 ? 'run' : 'runs'}), but no document of its site in this tab resumed it in time.`,
  };
}

const ordinal = (n: number) => (n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`);

/**
 * The document the call may run on (Chrome's documentId), or why it may not: the tab's last
 * observation must be the one the action was planned on, its tools must come from a document
 * Chrome named, that document must still be the tab's top document, and its origin must be one
 * of the token's.
 */
function pinnedDocument(
  call: ExecutionCall,
  seen: ReturnType<TabObserver['last']>,
  top: Pick<FrameTools, 'documentId' | 'origin' | 'url'> | undefined,
): { documentId: string; origin: string } | { refused: string } {
  const tool = `"${call.action}"`;
  const no = (refused: string) => ({ refused });
  if (!seen) return no(`The tab's page was not observed, so ${tool} cannot be tied to a document; nothing was run.`);
  if (call.observed && (withoutHash(seen.state.url) !== withoutHash(call.observed.url) || seen.state.state_version !== call.observed.state_version)) {
    return no(`The tab no longer shows the page ${tool} was observed on (it shows ${seen.state.url}); nothing was run.`);
  }
  const document = seen.toolsDocument;
  if (!document?.documentId) return no(`The page that offered ${tool} cannot be identified, so the call cannot be pinned to it; nothing was run.`);
  if (!top || top.documentId !== document.documentId) {
    return no(`The tab navigated away from the page that offered ${tool}${top ? ` (it now shows ${top.url})` : ''}; nothing was run on the new page.`);
  }
  if (call.allowed_origins && !call.allowed_origins.includes(document.origin)) {
    return no(`${tool} is offered by ${document.origin}, which the agent's token does not cover; nothing was run.`);
  }
  return { documentId: document.documentId, origin: document.origin };
}
