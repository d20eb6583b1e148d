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
 *
 * MV3 may stop the worker between a page's `requestToken()` and the next document's `resumeTool()`.
 * So the book writes what its rules need (the token, when it was minted, whether it was redeemed,
 * the tab, the origin, the action and its idempotency key, what the earlier links said) through a
 * storage port before it answers a page, and a new worker reads it back (validated: a record that
 * does not read is dropped, and its token refused). A restored chain waits for the restarted
 * pipeline's recovery to take it up (`adopt`, for that action and key only); one recovery does not
 * take up is closed (`releaseUnadopted`). Only a chain whose token was issued and not yet redeemed is
 * restored: a link that was running when the worker stopped cannot be followed, so its action is
 * resolved by re-reading, as any dispatched action is.
 */
import { SavedBook, SavedChain, type ContinuationStore, type PlannedCall } from './continuation-record.ts';

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

/** What opening a chain needs besides the tab and origin: the action's key and plan, and the whole call's deadline. */
export interface ChainStart {
  action_id: string;
  idempotency_key: string;
  tabId: number;
  origin: string;
  tool: string;
  planned: PlannedCall;
  ends_by: number;
}

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

/** What every chain is given by its book: the clock, the tokens' lifetime, a token maker, the token index, and the book's write. */
type ChainDeps = [clock: () => number, lifetimeMs: () => number, mintToken: () => string, onToken: (token: string, chain: ContinuationChain | undefined) => void, persist: () => Promise<void>];

/** One action's chain of runs. */
export class ContinuationChain {
  private readonly links = new Map<string, Link>();
  private issued: Issued | undefined;
  private queued: Redemption | undefined;
  private waiter: ((r: RedemptionWait) => void) | undefined;
  private state: 'live' | 'cancelled' | 'closed' = 'live';
  /** How many links have run (the first one included). */
  runs = 0;
  /** What the earlier links answered (the page's words, data only): the chain's end comes after them. */
  readonly said: string[] = [];
  readonly action_id: string;
  readonly idempotency_key: string;
  readonly tabId: number;
  /** The origin of the document the action was planned on: every link runs on it. */
  readonly origin: string;
  /** The tool's name, for the page's events on the next document. */
  readonly tool: string;
  readonly planned: PlannedCall;
  /** When the whole call must have ended, whichever worker runs it. */
  readonly ends_by: number;

  constructor(
    start: ChainStart,
    private readonly clock: () => number,
    private readonly lifetimeMs: () => number,
    private readonly mintToken: () => string,
    private readonly onToken: (token: string, chain: ContinuationChain | undefined) => void,
    /** Writes the book (resolves once what this chain now says is kept). */
    private readonly persist: () => Promise<void>,
  ) {
    this.action_id = start.action_id;
    this.idempotency_key = start.idempotency_key;
    this.tabId = start.tabId;
    this.origin = start.origin;
    this.tool = start.tool;
    this.planned = start.planned;
    this.ends_by = start.ends_by;
  }

  /** A chain a stopped worker left, its token issued and not redeemed: it waits for that token's redemption. */
  static restored(saved: SavedChain & { issued: NonNullable<SavedChain['issued']> }, deps: ChainDeps): ContinuationChain {
    const chain = new ContinuationChain(saved, ...deps);
    chain.runs = saved.runs;
    chain.said.push(...saved.said);
    chain.issued = { token: saved.issued.token, run_id: '', minted_at: saved.issued.minted_at, redeemed: false };
    return chain;
  }

  /** What the book keeps of it, for a worker that starts after this one stops. */
  saved(): SavedChain {
    return {
      action_id: this.action_id,
      idempotency_key: this.idempotency_key,
      tabId: this.tabId,
      origin: this.origin,
      tool: this.tool,
      runs: this.runs,
      ends_by: this.ends_by,
      said: [...this.said],
      planned: this.planned,
      ...(this.issued ? { issued: { token: this.issued.token, minted_at: this.issued.minted_at, redeemed: this.issued.redeemed } } : {}),
    };
  }

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
  async mint(run_id: string, sender: ContinuationSender): Promise<{ token: string } | Refusal> {
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
    // Kept before the page holds it: a worker that starts after this one stops still knows it.
    await this.persist();
    return { token };
  }

  /** The next document redeems the token: once, in time, in this tab, on the chain's origin. */
  async redeem(token: string, sender: ContinuationSender): Promise<{ tool: string } | Refusal> {
    const issued = this.issued;
    if (!this.live || !issued || issued.token !== token) return { refused: 'This continuation token is not valid (unknown, revoked, or its call has ended).' };
    if (issued.redeemed) return { refused: 'This continuation token was already redeemed.' };
    if (this.clock() - issued.minted_at > this.lifetimeMs()) return { refused: 'This continuation token has expired.' };
    if (sender.tabId !== this.tabId) return { refused: 'A continuation token is redeemed only in the tab whose tool asked for it.' };
    if (sender.origin !== this.origin) return { refused: `A continuation token of ${this.origin} cannot be redeemed by ${sender.origin}.` };
    issued.redeemed = true;
    // Kept before the page hears it was accepted: after a restart the token stays used.
    await this.persist();
    // Stopped, ended or expired while it was being kept: the token is used up, and nothing goes on.
    if (!this.live || this.issued !== issued) return { refused: 'This continuation token is not valid (unknown, revoked, or its call has ended).' };
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

  /** A link that asked to go on answered this (the page's words): kept, so the chain's end reports it after a restart too. */
  async heard(text: string): Promise<void> {
    this.said.push(text);
    await this.persist();
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
  /** Where the chains outlive the worker; none: they live as long as it does. */
  store?: ContinuationStore;
}

/** Every live chain, by action, by run and by token: what the worker asks when a page asks. */
export class ContinuationBook {
  private readonly byAction = new Map<string, ContinuationChain>();
  private readonly byToken = new Map<string, ContinuationChain>();
  /** Chains a stopped worker left, until recovery takes them up or lets them go; each with its waiters. */
  private readonly unadopted = new Map<string, { chain: ContinuationChain; decided: Promise<void>; decide: () => void }>();
  /** Writes in order: a later state never loses to an earlier one. */
  private writes: Promise<unknown> = Promise.resolve();
  /** The chains a stopped worker left, read once. */
  readonly ready: Promise<void>;

  constructor(private readonly options: ContinuationBookOptions) {
    this.ready = this.restore();
  }

  private chainDeps(): ChainDeps {
    return [
      this.options.clock,
      this.options.lifetimeMs,
      this.options.newToken ?? (() => newContinuationToken()),
      (token, owner) => (owner ? this.byToken.set(token, owner) : this.byToken.delete(token)),
      () => this.save(),
    ];
  }

  /** Reads what a stopped worker kept: only chains whose token waits, unredeemed and unexpired, come back. */
  private async restore(): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    const raw = await store.load().catch((error: unknown) => {
      console.warn('continuation records could not be read; their tokens are refused', error);
      return undefined;
    });
    const records = SavedBook.safeParse(raw ?? {});
    const dropped: string[] = [];
    for (const [key, value] of Object.entries(records.success ? records.data : {})) {
      const parsed = SavedChain.safeParse(value);
      const saved = parsed.success ? parsed.data : undefined;
      const issued = saved?.issued;
      if (!saved || saved.action_id !== key || !issued || issued.redeemed || this.options.clock() - issued.minted_at > this.options.lifetimeMs()) {
        dropped.push(key);
        continue;
      }
      const chain = ContinuationChain.restored({ ...saved, issued }, this.chainDeps());
      this.byAction.set(saved.action_id, chain);
      this.byToken.set(issued.token, chain);
      let decide!: () => void;
      const decided = new Promise<void>((resolve) => (decide = resolve));
      this.unadopted.set(saved.action_id, { chain, decided, decide });
    }
    if (dropped.length > 0 || !records.success) await this.save();
  }

  /** Writes every live chain (serialised); a failed write is logged, and the chain goes on in this worker. */
  private save(): Promise<void> {
    const store = this.options.store;
    if (!store) return Promise.resolve();
    const write = this.writes.then(() => {
      const chains: Record<string, SavedChain> = {};
      for (const chain of this.byAction.values()) if (chain.live) chains[chain.action_id] = chain.saved();
      return store.save(chains);
    });
    this.writes = write.catch((error: unknown) => console.warn('continuation records could not be written', error));
    return this.writes.then(() => undefined);
  }

  /** A chain for a dispatched action's tool call (one per action: a second open replaces and closes the first). */
  open(start: ChainStart): ContinuationChain {
    this.byAction.get(start.action_id)?.close();
    const chain = new ContinuationChain(start, ...this.chainDeps());
    this.byAction.set(start.action_id, chain);
    return chain;
  }

  /** Forgets a chain once its call is over (resolves once the book no longer keeps it). */
  close(chain: ContinuationChain): Promise<void> {
    chain.close();
    if (this.byAction.get(chain.action_id) === chain) this.byAction.delete(chain.action_id);
    this.decided(chain.action_id);
    return this.save();
  }

  chainOf(actionId: string): ContinuationChain | undefined {
    return this.byAction.get(actionId);
  }

  /**
   * A restarted pipeline's recovery takes up the chain a stopped worker left for this action, if
   * its idempotency key is the one the chain was opened for (a chain is bound to its action's key).
   */
  async adopt(actionId: string, idempotencyKey: string): Promise<ContinuationChain | undefined> {
    await this.ready;
    const left = this.unadopted.get(actionId);
    if (!left) return undefined;
    if (left.chain.idempotency_key !== idempotencyKey) {
      await this.close(left.chain);
      return undefined;
    }
    this.decided(actionId);
    return left.chain;
  }

  /** Recovery is over: a chain it did not take up has nobody to run its next link, so its token is refused from now on. */
  async releaseUnadopted(): Promise<void> {
    await this.ready;
    for (const { chain } of [...this.unadopted.values()]) await this.close(chain);
  }

  private decided(actionId: string): void {
    this.unadopted.get(actionId)?.decide();
    this.unadopted.delete(actionId);
  }

  /** A page's `requestToken()` for the run `run_id`. */
  async mint(run_id: string, sender: ContinuationSender): Promise<{ token: string } | Refusal> {
    await this.ready;
    for (const chain of this.byAction.values()) if (chain.has(run_id)) return chain.mint(run_id, sender);
    return { refused: 'No agent’s call is running with that id; a continuation token is issued only for a call Steward sent.' };
  }

  /** A page's `resumeTool(token, …)`; for a chain a stopped worker left, answered once recovery has taken it up or let it go. */
  async redeem(token: string, sender: ContinuationSender): Promise<{ tool: string } | Refusal> {
    await this.ready;
    const chain = this.byToken.get(token);
    if (!chain) return { refused: 'This continuation token is not valid (unknown, revoked, or its call has ended).' };
    const left = this.unadopted.get(chain.action_id);
    if (left) await left.decided;
    return chain.redeem(token, sender);
  }
}
