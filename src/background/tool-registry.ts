import type { FrameTools, ToolDescriptor, WebMcpApi } from '../protocol/webmcp.ts';

/** The WebMCP tools of every tab, keyed by tab, frame and origin. Pure: persistence is the caller's. */
export class ToolRegistry {
  private readonly frames = new Map<string, FrameTools>();

  static key(tabId: number, frameId: number): string {
    return `${tabId}:${frameId}`;
  }

  load(entries: readonly FrameTools[]): void {
    this.frames.clear();
    for (const e of entries) this.frames.set(ToolRegistry.key(e.tabId, e.frameId), e);
  }

  all(): FrameTools[] {
    return [...this.frames.values()];
  }

  /** A frame's report replaces what that frame said before; a new top document clears its subframes. */
  report(
    entry: { tabId: number; frameId: number; documentId?: string; origin: string; url: string; api: WebMcpApi; tools: ToolDescriptor[] },
    now: Date,
  ): void {
    if (entry.frameId === 0) {
      const previous = this.frames.get(ToolRegistry.key(entry.tabId, 0));
      if (previous && previous.documentId !== entry.documentId) this.forgetTab(entry.tabId);
    }
    this.frames.set(ToolRegistry.key(entry.tabId, entry.frameId), { ...entry, updatedAt: now.toISOString() });
  }

  forgetTab(tabId: number): void {
    for (const [key, value] of this.frames) if (value.tabId === tabId) this.frames.delete(key);
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
}
