import { describe, expect, it } from 'vitest';
import { TOOL_LIMITS, ToolRegistry } from '../../../../src/background/tools/registry.ts';
import type { ToolDescriptor } from '../../../../src/protocol/webmcp.ts';

const tool = (name: string): ToolDescriptor => ({ name, description: '', inputSchema: { type: 'object' }, annotations: {}, kind: 'imperative' });
const now = new Date('2026-11-30T00:00:00Z');
const report = (tabId: number, frameId: number, documentId: string, names: string[]) => ({
  tabId,
  frameId,
  documentId,
  origin: 'http://localhost:4101',
  url: 'http://localhost:4101/',
  api: 'native' as const,
  tools: names.map(tool),
});

describe('ToolRegistry', () => {
  it('keys tools by tab and frame; a frame’s new report replaces its old one', () => {
    const r = new ToolRegistry();
    r.report(report(1, 0, 'd1', ['a', 'b']), now);
    r.report(report(1, 3, 'f1', ['c']), now);
    r.report(report(2, 0, 'd2', ['z']), now);
    r.report(report(1, 0, 'd1', ['a']), now);
    expect(r.tab(1).map((f) => [f.frameId, f.tools.map((t) => t.name)])).toEqual([
      [0, ['a']],
      [3, ['c']],
    ]);
    expect(r.find(1, 3, 'c')?.tool.name).toBe('c');
    expect(r.find(1, 0, 'c')).toBeUndefined();
    expect(r.find(2, 0, 'z')?.frame.updatedAt).toBe(now.toISOString());
  });

  it('forgets a tab’s subframes when its top frame reports a new document', () => {
    const r = new ToolRegistry();
    r.report(report(1, 0, 'd1', ['a']), now);
    r.report(report(1, 5, 'f1', ['sub']), now);
    r.report(report(1, 0, 'd2', ['b']), now);
    expect(r.tab(1).map((f) => f.frameId)).toEqual([0]);
  });

  it('round-trips through load()/all() and forgets closed tabs', () => {
    const r = new ToolRegistry();
    r.report(report(1, 0, 'd1', ['a']), now);
    r.report(report(2, 0, 'd2', ['b']), now);
    const copy = new ToolRegistry();
    copy.load(r.all());
    copy.forgetTab(1);
    expect(copy.all().map((f) => f.tabId)).toEqual([2]);
  });
});

describe('ToolRegistry bounds: a page cannot fill storage.session', () => {
  const big = (name: string, chars: number): ToolDescriptor => ({ ...tool(name), description: 'x'.repeat(chars) });
  const many = (n: number, chars = 0) => Array.from({ length: n }, (_, i) => big(`t${i}`, chars));
  const entry = (tabId: number, frameId: number, tools: ToolDescriptor[]) => ({ ...report(tabId, frameId, `d${tabId}`, []), tools });

  it('keeps the first tools of a frame up to its count, and says how many it dropped', () => {
    const r = new ToolRegistry();
    r.report(entry(1, 0, many(10_000)), now);
    expect(r.tab(1)[0]).toMatchObject({ dropped: 10_000 - TOOL_LIMITS.topFrameTools });
    expect(r.tab(1)[0]!.tools.map((t) => t.name)).toEqual(many(TOOL_LIMITS.topFrameTools).map((t) => t.name));
    r.report(entry(1, 5, many(100)), now);
    expect(r.tab(1)[1]!.tools).toHaveLength(TOOL_LIMITS.subFrameTools);
  });

  it('keeps a frame’s tools within its bytes, however long their descriptions', () => {
    const r = new ToolRegistry();
    r.report(entry(1, 0, many(100, 16_000)), now);
    expect(JSON.stringify(r.tab(1)[0]!.tools).length).toBeLessThanOrEqual(TOOL_LIMITS.topFrameBytes);
    expect(r.tab(1)[0]!.tools.length).toBeGreaterThan(10);
    expect(r.tab(1)[0]!.dropped).toBe(100 - r.tab(1)[0]!.tools.length);
  });

  it('hears at most a few embedded frames per tab; the top frame always', () => {
    const r = new ToolRegistry();
    for (let f = 1; f <= 100; f++) r.report(entry(1, f, many(1)), now);
    r.report(entry(1, 0, many(1)), now);
    expect(r.tab(1).map((f) => f.frameId)).toEqual([0, ...Array.from({ length: TOOL_LIMITS.subFramesPerTab }, (_, i) => i + 1)]);
  });

  it('bounds the total over all tabs, forgetting the tabs that reported least recently, never the reporting one', () => {
    const r = new ToolRegistry();
    for (let tab = 1; tab <= 40; tab++) {
      r.report(entry(tab, 0, many(200, 16_000)), new Date(now.getTime() + tab * 1000));
      for (let f = 1; f <= 10; f++) r.report(entry(tab, f, many(50, 16_000)), new Date(now.getTime() + tab * 1000));
    }
    expect(r.totalBytes()).toBeLessThanOrEqual(TOOL_LIMITS.totalBytes);
    expect(JSON.stringify(r.all()).length).toBeLessThanOrEqual(TOOL_LIMITS.totalBytes + 1000);
    expect(r.tab(40).length).toBeGreaterThan(0);
    expect(r.tab(1)).toEqual([]);
  });
});
