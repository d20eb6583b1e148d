import { isErrorResult, type ActionResult } from '../protocol/results.ts';

/**
 * Taint is the runtime's fact, not the agent's claim (DESIGN §4): once page text, tool output or
 * anything else from a page has reached an agent, what it asks for next may have been steered by
 * that content, so none of its consequential actions is covered by a time window and its cards
 * say so. The agent's own `untrusted_input` flag can only add to this, never clear it.
 *
 * Taint is kept per agent, not per tab: an agent (the co-pilot, a paired MCP client) carries one
 * model context across all its sessions, so content read in one tab travels to its actions in
 * every other. A mark lasts as long as the ledger (the browser session, in the extension).
 */

export interface TaintMark {
  /** When the agent was first given page-derived content (ms since the epoch). */
  at: number;
  /** What reached it: "page state of http://…", "tool output", … (for the card and the audit). */
  source: string;
  session_id?: string;
}

/** The pipeline's port onto the ledger; the service worker's adapter survives a restart. */
export interface TaintLedger {
  taintOf(agentId: string): Promise<TaintMark | undefined>;
  /** Marks the agent tainted; the first mark is kept (later ones add nothing). */
  mark(agentId: string, mark: TaintMark): Promise<void>;
}

/** In memory: tests, the benchmark. */
export class MemoryTaintLedger implements TaintLedger {
  private readonly marks = new Map<string, TaintMark>();

  taintOf(agentId: string): Promise<TaintMark | undefined> {
    return Promise.resolve(this.marks.get(agentId));
  }

  mark(agentId: string, mark: TaintMark): Promise<void> {
    if (!this.marks.has(agentId)) this.marks.set(agentId, mark);
    return Promise.resolve();
  }
}

/**
 * Whether a result from a site contract's endpoint carries content the site wrote in its own
 * words (free text) rather than only structured state; results from a page always taint (the
 * runner marks them when it observes the page).
 */
export function freeTextIn(result: ActionResult): string | undefined {
  if (isErrorResult(result)) return undefined;
  if (result.output) return 'tool output';
  if ((result.execution.status === 'failed' || result.execution.status === 'unknown') && result.execution.error?.details?.page_error) return "the page's error message";
  if (result.effects?.some((e) => e.description !== undefined)) return 'the site’s description of the effects';
  return undefined;
}
