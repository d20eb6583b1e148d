import type { FrameTools, ToolDescriptor } from './webmcp.ts';

export interface PageTool {
  frameId: number;
  tool: ToolDescriptor;
}

/**
 * The tools a tab's page offers (to agents, and to the person's Run): the top frame's, then those
 * its same-origin embedded frames registered through Chrome's native API, which the top frame's
 * modelContext lists and runs in the frame that registered them. A name the top frame has stays
 * the top frame's. Embedded frames on the polyfill, or of another origin, are not the page's own.
 */
export function pageTools(frames: readonly FrameTools[]): PageTool[] {
  const top = frames.find((f) => f.frameId === 0);
  if (!top) return [];
  const out: PageTool[] = top.tools.map((tool) => ({ frameId: 0, tool }));
  const names = new Set(top.tools.map((t) => t.name));
  const embedded = frames.filter((f) => f.frameId !== 0 && f.api === 'native' && top.api === 'native' && f.origin === top.origin).sort((a, b) => a.frameId - b.frameId);
  for (const frame of embedded) {
    for (const tool of frame.tools) {
      if (names.has(tool.name)) continue;
      names.add(tool.name);
      out.push({ frameId: frame.frameId, tool });
    }
  }
  return out;
}

/** Whether the page offers this frame's tool of that name (see pageTools). */
export function pageOffers(frames: readonly FrameTools[], frameId: number, name: string): boolean {
  return pageTools(frames).some((t) => t.frameId === frameId && t.tool.name === name);
}
