import type { StewardLink } from '../link/steward-link.ts';
import type { Auth } from './pairing.ts';
import { listingSignature, mapPageTools, type MappedPageTool } from './page-tool-map.ts';

/**
 * Which page tools each client of this bridge process is offered: the WebMCP tools of its current
 * tab (bridge/page-tools, with its own token), kept per source (the stdio client, or an HTTP
 * bearer). Asked again when Steward says a tab's tools changed (bridge events) and after each of
 * the client's calls (its current tab may have changed); servers subscribed to a source hear of a
 * listing that differs, and send `notifications/tools/list_changed`.
 */

interface Listing {
  auth: Auth;
  tab_id: number | undefined;
  tools: MappedPageTool[];
  signature: string;
  /** A refresh running now, and whether another is due once it ends. */
  running?: Promise<void>;
  again?: boolean;
  /** Idempotency keys this client used with a page tool, and the action each became (retries read its status). */
  actions: Map<string, string>;
}

const MAX_REMEMBERED_KEYS = 200;

export class PageToolWatch {
  private readonly listings = new Map<string, Listing>();
  private readonly listeners = new Map<string, Set<(tools: MappedPageTool[]) => void>>();

  constructor(
    private readonly link: StewardLink,
    private readonly log: (line: string) => void,
  ) {
    link.onEvent((event) => {
      if (event.type !== 'page-tools-changed') return;
      // A listing being fetched may have read the tab before this change, and one with no tab yet may be about to get it: ask again.
      for (const [source, listing] of this.listings) if (listing.tab_id === event.tab_id || listing.tab_id === undefined || listing.running) void this.refresh(source);
    });
  }

  /** The caller's token for a source (after a successful pairing step); a new one is listed at once. */
  know(source: string, auth: Auth): void {
    const listing = this.listings.get(source);
    if (listing && listing.auth.token === auth.token && listing.auth.agent_id === auth.agent_id) return;
    this.listings.set(source, { auth, tab_id: undefined, tools: [], signature: listingSignature([]), actions: new Map() });
    void this.refresh(source);
  }

  /** The token is gone: nothing of the page is offered any more. */
  forget(source: string): void {
    if (!this.listings.delete(source)) return;
    this.tell(source, []);
  }

  tools(source: string): MappedPageTool[] {
    return this.listings.get(source)?.tools ?? [];
  }

  find(source: string, name: string): MappedPageTool | undefined {
    return this.tools(source).find((t) => t.name === name);
  }

  subscribe(source: string, listener: (tools: MappedPageTool[]) => void): () => void {
    let set = this.listeners.get(source);
    if (!set) this.listeners.set(source, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  rememberAction(source: string, key: string, actionId: string): void {
    const actions = this.listings.get(source)?.actions;
    if (!actions) return;
    actions.delete(key);
    actions.set(key, actionId);
    if (actions.size > MAX_REMEMBERED_KEYS) actions.delete(actions.keys().next().value!);
  }

  actionFor(source: string, key: string): string | undefined {
    return this.listings.get(source)?.actions.get(key);
  }

  /** Asks Steward for the source's page tools again; concurrent asks are folded into one more. */
  refresh(source: string): Promise<void> {
    const listing = this.listings.get(source);
    if (!listing) return Promise.resolve();
    if (listing.running) {
      listing.again = true;
      return listing.running;
    }
    listing.running = (async () => {
      do {
        listing.again = false;
        await this.fetch(source, listing);
      } while (listing.again && this.listings.get(source) === listing);
    })().finally(() => (listing.running = undefined));
    return listing.running;
  }

  private async fetch(source: string, listing: Listing): Promise<void> {
    const reply = await this.link.call('bridge/page-tools', { auth: listing.auth });
    if (this.listings.get(source) !== listing) return;
    if (!reply.ok) {
      // A token Steward no longer honours offers nothing; a browser that is away keeps the last listing until it is back.
      if (reply.error.code === 'TOKEN_INVALID') this.forget(source);
      else this.log(`steward-bridge: could not list the page's tools: ${reply.error.code}`);
      return;
    }
    listing.tab_id = reply.data.tab?.tab_id;
    const tools = mapPageTools(reply.data.tab, reply.data.tools);
    const signature = listingSignature(tools);
    if (signature === listing.signature) return;
    listing.tools = tools;
    listing.signature = signature;
    this.tell(source, tools);
  }

  private tell(source: string, tools: MappedPageTool[]): void {
    for (const listener of this.listeners.get(source) ?? []) listener(tools);
  }
}
