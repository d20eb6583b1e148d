import { HIDDEN, type TabControl } from '../../../../src/background/ports/navigate.ts';

type Updated = (tabId: number, info: { status?: string }) => void;
type Removed = (tabId: number) => void;

/** chrome.tabs as the ports use it: statuses, update/create, and the two events. */
export class FakeTabs implements TabControl {
  status = new Map<number, string>();
  updated: Array<{ tabId: number; url: string }> = [];
  created: string[] = [];
  /** What each tab shows; HIDDEN where Chrome keeps the address from Steward (a site it has no access to). */
  urls = new Map<number, string | typeof HIDDEN>();
  /** Fences held (tab, origins), and whether each was released. */
  holds: Array<{ tabId: number; origins: readonly string[]; released: boolean }> = [];
  /** Where a navigation ends up (a redirect the fence stopped shows the blocked URL): the requested URL by default. */
  landsOn: (url: string) => string | typeof HIDDEN = (url) => url;
  private nextId = 100;
  private readonly up = new Set<Updated>();
  private readonly rm = new Set<Removed>();
  /** What a navigation does: by default it loads and completes a little later. */
  onNavigate: (tabId: number) => void = (tabId) => {
    setTimeout(() => this.emit(tabId, 'loading'), 5);
    setTimeout(() => this.emit(tabId, 'complete'), 20);
  };

  emit(tabId: number, status: string): void {
    this.status.set(tabId, status);
    for (const l of [...this.up]) l(tabId, { status });
  }

  remove(tabId: number): void {
    this.status.delete(tabId);
    for (const l of [...this.rm]) l(tabId);
  }

  get = async (tabId: number) => (this.status.has(tabId) ? { status: this.status.get(tabId) } : undefined);
  onUpdated = { addListener: (l: Updated) => void this.up.add(l), removeListener: (l: Updated) => void this.up.delete(l) };
  onRemoved = { addListener: (l: Removed) => void this.rm.add(l), removeListener: (l: Removed) => void this.rm.delete(l) };

  get listeners(): number {
    return this.up.size + this.rm.size;
  }

  urlOf = async (tabId: number) => this.urls.get(tabId);

  /** Tabs closed through close(). */
  closed: number[] = [];
  /** The tabs opened while each step runs (a pop-up, a target="_blank" link, the person's): none by default. */
  opens: number[] = [];

  /** Tabs showing Chrome's error page (a navigation the fence blocked). */
  errorPages = new Set<number>();
  showsErrorPage = async (tabId: number) => this.errorPages.has(tabId);

  close = async (tabId: number) => {
    this.closed.push(tabId);
    this.remove(tabId);
  };

  fence = {
    hold: async (tabId: number, origins: readonly string[]) => {
      const hold = { tabId, origins, released: false };
      this.holds.push(hold);
      return { opened: async () => [...this.opens], release: async () => void (hold.released = true) };
    },
  };

  update = async (tabId: number, props: { url: string }) => {
    this.updated.push({ tabId, url: props.url });
    this.urls.set(tabId, this.landsOn(props.url));
    this.onNavigate(tabId);
    return {};
  };

  create = async (props: { url: string; active: boolean }) => {
    const id = this.nextId++;
    this.created.push(props.url);
    this.urls.set(id, props.url);
    this.status.set(id, 'loading');
    setTimeout(() => this.emit(id, 'complete'), 10);
    return { id };
  };
}
