import { describe, expect, it } from 'vitest';
import { describeActionResult } from '../../../bridge/src/mcp/execute-text.ts';
import type { ActionResult } from '../../../src/protocol/results.ts';

describe('what MCP clients are told a DOM action changed', () => {
  const base = {
    action_id: 'act_1',
    resource: { type: 'page', id: 'x', state: 'open', state_version: 'v2' },
    execution: { status: 'confirmed', certainty: 'inferred', executed_at: '2026-08-03T11:52:14Z' },
  } as const;

  it('warns when a read-only-looking action wrote, and names the request', () => {
    const r = {
      ...base,
      observed_changes: {
        read_only_wrote: true,
        requests: [{ method: 'DELETE', url: 'http://lab.test/items/7', kind: 'fetch', status: 200, at_ms: 4 }],
        removed: { count: 1, examples: [{ role: 'row', name: 'Item 7' }] },
      },
    } as ActionResult;
    const { text, isError } = describeActionResult(r);
    expect(isError).toBe(false);
    expect(text).toContain('WARNING: Steward judged this action read-only');
    expect(text).toContain('DELETE http://lab.test/items/7 (200)');
    expect(text).toContain('went away: 1 element(s) (row "Item 7")');
  });

  it('says what appeared and that a page never settled; says nothing extra when nothing changed', () => {
    const r = { ...base, observed_changes: { appeared: { count: 2, examples: [{ role: 'menuitem', name: 'Profile' }] }, settle: { ms: 1500, how: 'capped', busy: ['mutations'] } } } as ActionResult;
    const { text } = describeActionResult(r);
    expect(text).toContain('appeared: 2 element(s) (menuitem "Profile")');
    expect(text).toContain('had not settled after 1500 ms (still busy: mutations)');
    expect(describeActionResult(base as ActionResult).text).not.toContain('What changed');
  });
});
