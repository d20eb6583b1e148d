import { describe, expect, it } from 'vitest';
import { pageOffers, pageTools } from '../../../src/protocol/page-tools.ts';
import type { FrameTools, ToolDescriptor, WebMcpApi } from '../../../src/protocol/webmcp.ts';

const tool = (name: string): ToolDescriptor => ({ name, description: name, inputSchema: { type: 'object' }, annotations: {}, kind: 'imperative' });
const frame = (frameId: number, names: string[], extra: { origin?: string; api?: WebMcpApi } = {}): FrameTools => ({
  tabId: 1,
  frameId,
  origin: extra.origin ?? 'https://shop.test',
  url: `https://shop.test/${frameId}`,
  api: extra.api ?? 'native',
  tools: names.map(tool),
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('pageTools: what a tab’s page offers', () => {
  it('the top frame’s tools, then those a same-origin frame registered natively, each under its frame', () => {
    const offered = pageTools([frame(3, ['store_hours']), frame(0, ['check_stock', 'return_policy'])]);
    expect(offered.map((t) => [t.frameId, t.tool.name])).toEqual([
      [0, 'check_stock'],
      [0, 'return_policy'],
      [3, 'store_hours'],
    ]);
    expect(pageOffers([frame(0, []), frame(3, ['store_hours'])], 3, 'store_hours')).toBe(true);
  });

  it('a name the top frame has stays the top frame’s', () => {
    const frames = [frame(0, ['check_stock']), frame(2, ['check_stock', 'store_hours'])];
    expect(pageTools(frames).map((t) => [t.frameId, t.tool.name])).toEqual([
      [0, 'check_stock'],
      [2, 'store_hours'],
    ]);
    expect(pageOffers(frames, 2, 'check_stock')).toBe(false);
  });

  it('offers nothing from another origin’s frame, a polyfill frame, or without a top frame', () => {
    expect(pageTools([frame(0, ['a']), frame(1, ['ad_tool'], { origin: 'https://ads.test' }), frame(2, ['poly'], { api: 'polyfill' })]).map((t) => t.tool.name)).toEqual(['a']);
    expect(pageTools([frame(0, ['a'], { api: 'polyfill' }), frame(2, ['b'], { api: 'polyfill' })]).map((t) => t.tool.name)).toEqual(['a']);
    expect(pageTools([frame(4, ['b'])])).toEqual([]);
  });
});
