import type { ExecutionCall, ExecutionReport, Executor, PortContext } from '../../pipeline/ports.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';
import type { PageDeadlines } from '../../protocol/deadlines.ts';
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
  deadlines?: Pick<PageDeadlines, 'tool_run_ms' | 'reply_grace_ms'>;
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

  /** Sends the call to the pinned document and reads its answer. */
  async function runOn(call: ExecutionCall, tabId: number, documentId: string): Promise<ExecutionReport> {
    const waitsForUser = call.tool?.kind === 'declarative' && call.tool.autosubmit !== true;
    const run = deps.send(
      tabId,
      TOP_FRAME,
      'content/run-tool',
      { name: call.action, input: call.input, deadline_ms: deadlines.tool_run_ms },
      { documentId, deadline_ms: deadlines.tool_run_ms + deadlines.reply_grace_ms },
    );
    // A form left waiting may reject long after we answered; that must not be an unhandled rejection.
    run.catch(() => undefined);
    let raw: unknown;
    try {
      if (waitsForUser) {
        const pending = Symbol('pending');
        const first = await Promise.race([run, new Promise((r) => setTimeout(() => r(pending), deps.formWaitMs ?? 1_500))]);
        // Filled, and now waiting for the person: pending, not done.
        if (first === pending) return { outcome: 'accepted' };
        raw = first;
      } else raw = await run;
    } catch (error) {
      // The content script's own deadline should have answered first; this one holds even if it cannot.
      if (error instanceof DeadlineExceeded) return { outcome: 'timed_out', message: toolTimeoutMessage(deadlines.tool_run_ms) };
      return { outcome: 'failed', message: `the page could not be reached: ${error instanceof Error ? error.message : String(error)}`, side_effect_possible: true };
    }
    const reply = raw as Awaited<typeof run>;
    if (!reply.ok && UNKNOWN_ANSWER.has(reply.error.code)) return { outcome: 'failed', message: 'the page answered with something that is not a tool result', side_effect_possible: true };
    // The messenger's own refusal (the site gate) reads like the page's: nothing was run.
    const outcome: ToolRunOutcome = reply.ok ? reply.data : reply;
    if (!outcome.ok && outcome.error.code === 'TIMEOUT') return { outcome: 'timed_out', message: outcome.error.message.slice(0, 3500) };
    if (!outcome.ok) {
      // The page's own words, if its tool threw or said it failed: bounded by the schema, data only.
      const said = PageErrorDetails.safeParse(outcome.error.details);
      const pageError = outcome.error.code === 'EXECUTION_FAILED' && said.success ? said.data.page_error : undefined;
      return {
        outcome: 'failed',
        message: `${outcome.error.code}: ${outcome.error.message}`.slice(0, 3500),
        side_effect_possible: !NOT_RUN.has(outcome.error.code),
        ...(pageError ? { page_error: pageError } : {}),
      };
    }
    // A page's tool output is page data, never instructions, whether or not the tool says so.
    return { outcome: 'completed', output: { text: outcome.result, truncated: outcome.truncated, untrusted: true } };
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
      try {
        const report = await runOn(call, tabId, pinned.documentId);
        const answered = report.outcome === 'completed' && typeof report.output?.text === 'string';
        if (watch && (watch.navigated || !answered)) await watch.settled(FORM_NAVIGATION_START_MS);
        return report;
      } finally {
        watch?.dispose();
      }
    },
  };
}

/**
 * The document the call may run on (Chrome's documentId), or why it may not: the tab's last
 * observation must be the one the action was planned on, its tools must come from a document
 * Chrome named, that document must still be the tab's top document, and its origin must be one
 * of the token's.
 */
function pinnedDocument(call: ExecutionCall, seen: ReturnType<TabObserver['last']>, top: Pick<FrameTools, 'documentId' | 'origin' | 'url'> | undefined): { documentId: string } | { refused: string } {
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
  return { documentId: document.documentId };
}
