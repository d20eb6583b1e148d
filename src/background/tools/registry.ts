import type { FrameTools, ToolDescriptor, WebMcpApi } from '../../protocol/webmcp.ts';
import { pageOffers, pageTools } from '../../protocol/page-tools.ts';

/**
 * What the registry keeps, so that no page can fill chrome.storage.session (10 MB, shared with the
 * pipeline's session map) with tool reports: per frame a number of tools and bytes (the top frame
 * gets more than an embedded one), a number of embedded frames per tab, and a total over all tabs
 * (the tabs that reported least recently go first; the reporting tab always stays).
 */
export const TOOL_LIMITS = {
  topFrameTools: 128,
  topFrameBytes: 256 * 1024,
  subFrameTools: 16,
  subFrameBytes: 32 * 1024,
  subFramesPerTab: 8,
  totalBytes: 4 * 1024 * 1024,
} as const;

const bytesOf = (value: unknown) => JSON.stringify(value).length;

/** The WebMCP tools of every tab, keyed by tab, frame and origin. Pure: persistence is the caller's. */
export class ToolRegistry {
  private readonly frames = new Map<string, FrameTools>();
  private readonly sizes = new Map<string, number>();

  constructor(private readonly limits: typeof TOOL_LIMITS = TOOL_LIMITS) {}

  static key(tabId: number, frameId: number): string {
    return `${tabId}:${frameId}`;
  }

  load(entries: readonly FrameTools[]): void {
    this.frames.clear();
    this.sizes.clear();
    for (const e of entries) this.set(e);
  }

  all(): FrameTools[] {
    return [...this.frames.values()];
  }

  /** A frame's report replaces what that frame said before; a new top document clears its subframes. */
  report(entry: { tabId: number; frameId: number; documentId?: string; origin: string; url: string; api: WebMcpApi; tools: ToolDescriptor[] }, now: Date): void {
    if (entry.frameId === 0) {
      const previous = this.frames.get(ToolRegistry.key(entry.tabId, 0));
      if (previous && previous.documentId !== entry.documentId) this.forgetTab(entry.tabId);
    } else if (!this.frames.has(ToolRegistry.key(entry.tabId, entry.frameId))) {
      // One more embedded frame than a tab may hold: not heard.
      if (this.tab(entry.tabId).filter((f) => f.frameId !== 0).length >= this.limits.subFramesPerTab) return;
    }
    const top = entry.frameId === 0;
    const { kept, dropped } = this.bounded(entry.tools, top ? this.limits.topFrameTools : this.limits.subFrameTools, top ? this.limits.topFrameBytes : this.limits.subFrameBytes);
    this.set({ ...entry, tools: kept, ...(dropped > 0 ? { dropped } : {}), updatedAt: now.toISOString() });
    this.evictBeyondTotal(entry.tabId);
  }

  forgetTab(tabId: number): void {
    for (const [key, value] of this.frames) {
      if (value.tabId !== tabId) continue;
      this.frames.delete(key);
      this.sizes.delete(key);
    }
  }

  tab(tabId: number): FrameTools[] {
    return this.all()
      .filter((f) => f.tabId === tabId)
      .sort((a, b) => a.frameId - b.frameId);
  }

  find(tabId: number, frameId: number, name: string): { frame: FrameTools; tool: ToolDescriptor } | undefined {
    const frame = this.frames.get(ToolRegistry.key(tabId, frameId));
    const tool = frame?.tools.find((t) => t.name === name);
    return frame && tool ? { frame, tool } : undefined;
  }

  /** The tools the tab's page offers (src/protocol/page-tools.ts), with the top frame that reported them. */
  pageTools(tabId: number): { top: FrameTools; tools: ToolDescriptor[] } | undefined {
    const frames = this.tab(tabId);
    const top = frames.find((f) => f.frameId === 0);
    return top ? { top, tools: pageTools(frames).map((t) => t.tool) } : undefined;
  }

  /** Whether the tab's page offers this frame's tool: it then runs through the top frame. */
  offersFromPage(tabId: number, frameId: number, name: string): boolean {
    return pageOffers(this.tab(tabId), frameId, name);
  }

  /** What all reports together take when stored (characters of JSON). */
  totalBytes(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }

  private set(entry: FrameTools): void {
    const key = ToolRegistry.key(entry.tabId, entry.frameId);
    this.frames.set(key, entry);
    this.sizes.set(key, bytesOf(entry));
  }

  /** The page's first tools, as many as fit the frame's count and bytes. */
  private bounded(tools: ToolDescriptor[], maxTools: number, maxBytes: number): { kept: ToolDescriptor[]; dropped: number } {
    const kept: ToolDescriptor[] = [];
    let bytes = 0;
    for (const tool of tools) {
      if (kept.length >= maxTools) break;
      const size = bytesOf(tool);
      if (bytes + size > maxBytes) break;
      bytes += size;
      kept.push(tool);
    }
    return { kept, dropped: tools.length - kept.length };
  }

  /** Over the total: forget the tabs that reported least recently, never the one reporting now. */
  private evictBeyondTotal(reportingTab: number): void {
    while (this.totalBytes() > this.limits.totalBytes) {
      const latest = new Map<number, string>();
      for (const f of this.frames.values()) if (f.tabId !== reportingTab && (latest.get(f.tabId) ?? '') < f.updatedAt) latest.set(f.tabId, f.updatedAt);
      const oldest = [...latest.entries()].sort((a, b) => a[1].localeCompare(b[1]))[0];
      if (!oldest) return;
      this.forgetTab(oldest[0]);
    }
  }
}
