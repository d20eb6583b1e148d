import { isErrorResult, type ActionResult } from '../protocol/results.ts';

/**
 * Taint is the runtime's fact, not the agent's claim (DESIGN §4): once page text, tool output or
 * anything else from a page has reached an agent, what it asks for next may have been steered by
 * that content, so none of its consequential actions is covered by a time window and its cards
 * say so. The agent's own `untrusted_input` flag can only add to this, never clear it.
 *
 * Taint is kept per agent, not per tab: an agent (the co-pilot, a paired MCP client) carries one
 * model context across all its sessions, so content read in one tab travels to its actions in
 * every other. A mark lasts as long as the agent's credential: it survives a browser restart, is
 * dropped when the agent's last token is revoked or purged (a new pairing is a new agent), and
 * otherwise only the person clears it, in the panel, with an audit entry (PipelineAdmin.clearTaint).
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
  /**
   * Drops the agent's mark and returns it (undefined: there was none). Only the person's decision
   * (audited) or the end of the agent's credential calls this. Throws when the record cannot be
   * read: clearing then could not tell one agent's mark from another's.
   */
  clear(agentId: string): Promise<TaintMark | undefined>;
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

  clear(agentId: string): Promise<TaintMark | undefined> {
    const mark = this.marks.get(agentId);
    this.marks.delete(agentId);
    return Promise.resolve(mark);
  }
}

/**
 * What of a page or a site an action's result carries, when it carries any: tool output, the
 * site's own words (effects, the page's error), what changed on the page, the actions on offer,
 * a state read from a page. Whoever hands such a result to an agent taints it (the MCP bridge's
 * execute and status, the pipeline itself). A site contract's structured answer alone — a
 * snake_case state name, a version, its declared action names, all checked by schema — is data,
 * not words, and does not (so a
 * contract agent's "approve for N minutes" keeps working); nor does a refusal in Steward's words.
 */
export function siteContentIn(result: ActionResult): string | undefined {
  if (isErrorResult(result)) {
    if (result.error.details?.page_error) return "the page's error message";
    if (result.available_actions?.length) return 'the actions a page offers';
    if (result.current && result.current.source !== 'site_contract') return 'the state a page shows';
    return undefined;
  }
  const free = freeTextIn(result);
  if (free) return free;
  if (result.observed_changes) return 'what changed on the page';
  // A contract's state, version and declared action names: schema-checked identifiers, not prose.
  if (result.source === 'site_contract') return undefined;
  return `the state of ${result.resource.type} ${result.resource.id} and the actions a page shows`;
}

/**
 * Whether a result from a site contract's endpoint carries content the site wrote in its own
 * words (free text) rather than only structured state; results from a page always taint (the
 * runner marks them when it observes the page).
 */
function freeTextIn(result: ActionResult): string | undefined {
  if (isErrorResult(result)) return undefined;
  if (result.output) return 'tool output';
  if ((result.execution.status === 'failed' || result.execution.status === 'unknown') && result.execution.error?.details?.page_error) return "the page's error message";
  if (result.effects?.some((e) => e.description !== undefined)) return 'the site’s description of the effects';
  return undefined;
}
