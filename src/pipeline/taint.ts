import type { Phrase } from '../protocol/phrase.ts';

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
  /** `source` as a phrase, for the panel to say in the person's language. */
  said?: Phrase;
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
