import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/background/tool-registry.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';

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
