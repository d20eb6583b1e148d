/**
 * WebMCP tool continuations (the WebMCP continuations explainer: `invocation.requestToken()` in a
 * tool's `execute`, `document.modelContext.resumeTool(token, callback)` in a later document), as
 * Steward keeps them for the agents' calls it runs. One chain per dispatched action: its first
 * link is the tool's run on the page the action was planned on; a run that asks for a token says
 * it is not finished, and the document that redeems the token runs the next link. The action
 * stays dispatched (pending) until a link ends without asking for one: that link's end is the
 * chain's end, and the action is verified then.
 *
 * The page chooses nothing here: a token is minted only for a run Steward sent (its `run_id`) to
 * the very document Chrome names as the asker, and it is redeemed at most once, before it
 * expires, in the same tab, by a document of the origin that asked for it (Chrome's word on the
 * sender, never the page's), while its chain is live. The person's Stop cancels the chain: its
 * token is revoked and the running link is aborted. Pure: the service worker feeds it Chrome's
 * senders and asks it, so every rule here is tested in Node.
 */

/** Who sends a message, as Chrome says (chrome.runtime.MessageSender), never as the page claims. */
export interface ContinuationSender {
  tabId: number;
  frameId: number;
  documentId?: string | undefined;
  origin: string;
}

/** Where the next link runs: the document that redeemed the token. */
export interface Redemption {
  token: string;
  frameId: number;
  documentId?: string | undefined;
}

export type RedemptionWait = Redemption | { ended: 'expired' | 'cancelled' };

export type Refusal = { refused: string };

interface Link {
  run_id: string;
  documentId?: string | undefined;
  token?: string;
  running: boolean;
}

interface Issued {
  token: string;
  run_id: string;
  minted_at: number;
  redeemed: boolean;
}

/** A continuation token: unguessable, URL-safe (pages put it in an address, as the explainer's example does). */
function newContinuationToken(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(24));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `stwc_${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** A run id for one link: unguessable too, since the page sees it only through Steward's private port. */
export const newRunId = (random?: (bytes: Uint8Array) => Uint8Array): string => newContinuationToken(random).replace(/^stwc_/, 'run_');

/** One action's chain of runs. */
export class ContinuationChain {
  private readonly links = new Map<string, Link>();
  private issued: Issued | undefined;
  private queued: Redemption | undefined;
  private waiter: ((r: RedemptionWait) => void) | undefined;
  private state: 'live' | 'cancelled' | 'closed' = 'live';
  /** How many links have run (the first one included). */
  runs = 0;

  constructor(
    readonly action_id: string,
    readonly tabId: number,
    /** The origin of the document the action was planned on: every link runs on it. */
    readonly origin: string,
    /** The tool's name, for the page's events on the next document. */
    readonly tool: string,
    private readonly clock: () => number,
    private readonly lifetimeMs: () => number,
    private readonly mintToken: () => string,
    private readonly onToken: (token: string, chain: ContinuationChain | undefined) => void,
  ) {}

  get cancelled(): boolean {
    return this.state === 'cancelled';
  }

  get live(): boolean {
    return this.state === 'live';
  }

  /** A link goes out: a run Steward sends to that document. */
  started(run_id: string, documentId: string | undefined): void {
    this.runs++;
    this.links.set(run_id, { run_id, ...(documentId ? { documentId } : {}), running: true });
  }

  /** The link's run settled (answered, failed, or its document went away). */
  settled(run_id: string): void {
    const link = this.links.get(run_id);
    if (link) link.running = false;
  }

  /** Whether `run_id` is one of this chain's links. */
  has(run_id: string): boolean {
    return this.links.has(run_id);
  }

  /** The run currently going, if any (what Stop aborts). */
  running(): Link | undefined {
    return [...this.links.values()].find((l) => l.running);
  }

  /** The token the link asked for, if it did: the chain goes on. */
  tokenOf(run_id: string): string | undefined {
    return this.links.get(run_id)?.token;
  }

  /**
   * A token for the running link `run_id`, asked by `sender`: only the document the run was sent
   * to, in this tab, while it runs. Asked again in the same run: the same token.
   */
  mint(run_id: string, sender: ContinuationSender): { token: string } | Refusal {
    const link = this.links.get(run_id);
    if (!this.live) return { refused: 'The agent’s call was stopped or has ended; no continuation can be issued.' };
    if (!link || !link.running) return { refused: 'That tool run has ended; a continuation token is issued only while it runs.' };
    if (sender.tabId !== this.tabId || (link.documentId !== undefined && sender.documentId !== link.documentId)) {
      return { refused: 'Only the document that runs the tool may ask for its continuation token.' };
    }
    if (link.token) return { token: link.token };
    const token = this.mintToken();
    link.token = token;
    // The chain has one live token: the previous link's (redeemed by now) is no longer anyone's.
    if (this.issued) this.onToken(this.issued.token, undefined);
    this.issued = { token, run_id, minted_at: this.clock(), redeemed: false };
    this.onToken(token, this);
    return { token };
  }

  /** The next document redeems the token: once, in time, in this tab, on the chain's origin. */
  redeem(token: string, sender: ContinuationSender): { tool: string } | Refusal {
    const issued = this.issued;
    if (!this.live || !issued || issued.token !== token) return { refused: 'This continuation token is not valid (unknown, revoked, or its call has ended).' };
    if (issued.redeemed) return { refused: 'This continuation token was already redeemed.' };
    if (this.clock() - issued.minted_at > this.lifetimeMs()) return { refused: 'This continuation token has expired.' };
    if (sender.tabId !== this.tabId) return { refused: 'A continuation token is redeemed only in the tab whose tool asked for it.' };
    if (sender.origin !== this.origin) return { refused: `A continuation token of ${this.origin} cannot be redeemed by ${sender.origin}.` };
    issued.redeemed = true;
    const redemption: Redemption = { token, frameId: sender.frameId, ...(sender.documentId ? { documentId: sender.documentId } : {}) };
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = undefined;
      wake(redemption);
    } else this.queued = redemption;
    return { tool: this.tool };
  }

  /**
   * The redemption of the token the last link asked for (it may have come while that link still
   * ran), or why none will come: the token outlived its lifetime (or `budgetMs`, what is left of
   * the executor's time), or the chain was cancelled.
   */
  redemption(budgetMs: number): Promise<RedemptionWait> {
    if (this.state === 'cancelled') return Promise.resolve({ ended: 'cancelled' });
    if (this.queued) {
      const r = this.queued;
      this.queued = undefined;
      return Promise.resolve(r);
    }
    const issued = this.issued;
    if (!issued || !this.live) return Promise.resolve({ ended: 'expired' });
    const left = Math.max(0, Math.min(issued.minted_at + this.lifetimeMs() - this.clock(), budgetMs));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiter !== finish) return;
        this.waiter = undefined;
        this.revoke();
        resolve({ ended: 'expired' });
      }, left);
      const finish = (r: RedemptionWait) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.waiter = finish;
    });
  }

  /** The person stopped the call: the token is revoked, a wait ends at once. */
  cancel(): void {
    if (this.state !== 'live') return;
    this.state = 'cancelled';
    this.revoke();
    this.wake({ ended: 'cancelled' });
  }

  /** The chain ended (its call is over): nothing it issued is redeemable any more. */
  close(): void {
    if (this.state === 'live') this.state = 'closed';
    this.revoke();
    this.wake({ ended: 'expired' });
  }

  private revoke(): void {
    if (this.issued) this.onToken(this.issued.token, undefined);
    this.issued = undefined;
    this.queued = undefined;
  }

  private wake(r: RedemptionWait): void {
    const wake = this.waiter;
    this.waiter = undefined;
    wake?.(r);
  }
}

export interface ContinuationBookOptions {
  clock: () => number;
  /** How long a token may wait for its redemption (PAGE_DEADLINES.continuation_token_ms). */
  lifetimeMs: () => number;
  newToken?: () => string;
}

/** Every live chain, by action, by run and by token: what the worker asks when a page asks. */
export class ContinuationBook {
  private readonly byAction = new Map<string, ContinuationChain>();
  private readonly byToken = new Map<string, ContinuationChain>();

  constructor(private readonly options: ContinuationBookOptions) {}

  /** A chain for a dispatched action's tool call (one per action: a second open replaces and closes the first). */
  open(start: { action_id: string; tabId: number; origin: string; tool: string }): ContinuationChain {
    this.byAction.get(start.action_id)?.close();
    const chain = new ContinuationChain(
      start.action_id,
      start.tabId,
      start.origin,
      start.tool,
      this.options.clock,
      this.options.lifetimeMs,
      this.options.newToken ?? (() => newContinuationToken()),
      (token, owner) => (owner ? this.byToken.set(token, owner) : this.byToken.delete(token)),
    );
    this.byAction.set(start.action_id, chain);
    return chain;
  }

  /** Forgets a chain once its call is over. */
  close(chain: ContinuationChain): void {
    chain.close();
    if (this.byAction.get(chain.action_id) === chain) this.byAction.delete(chain.action_id);
  }

  chainOf(actionId: string): ContinuationChain | undefined {
    return this.byAction.get(actionId);
  }

  /** A page's `requestToken()` for the run `run_id`. */
  mint(run_id: string, sender: ContinuationSender): { token: string } | Refusal {
    for (const chain of this.byAction.values()) if (chain.has(run_id)) return chain.mint(run_id, sender);
    return { refused: 'No agent’s call is running with that id; a continuation token is issued only for a call Steward sent.' };
  }

  /** A page's `resumeTool(token, …)`. */
  redeem(token: string, sender: ContinuationSender): { tool: string } | Refusal {
    const chain = this.byToken.get(token);
    if (!chain) return { refused: 'This continuation token is not valid (unknown, revoked, or its call has ended).' };
    return chain.redeem(token, sender);
  }
}
