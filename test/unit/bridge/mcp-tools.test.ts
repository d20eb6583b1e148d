import { afterEach, describe, expect, it } from 'vitest';
import { FakeLink, connectInMemory, tempHome } from './mcp-fake-link.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('the MCP tools', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`lists the eight tools with their annotations, input schemas and short descriptions (${mode === 'auto' ? '2026-07-28' : '2025'} client)`, async () => {
      const link = new FakeLink();
      const session = await connectInMemory(link, await tempHome(), { mode });
      closers.push(() => session.close());
      expect(session.client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');

      const { tools } = await session.client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(Object.keys(byName).sort()).toEqual([
        'steward_action_status',
        'steward_actions',
        'steward_execute',
        'steward_memory',
        'steward_observe',
        'steward_open',
        'steward_screenshot',
        'steward_tabs',
      ]);
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeLessThanOrEqual(500);
        expect(tool.description, tool.name).toMatch(/untrusted/i);
        expect(tool.inputSchema.type).toBe('object');
      }
      expect(byName.steward_tabs!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(byName.steward_open!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      expect(byName.steward_observe!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.steward_actions!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.steward_execute!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
      expect(byName.steward_action_status!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.steward_memory!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.steward_screenshot!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(byName.steward_execute!.inputSchema.required).toEqual(expect.arrayContaining(['action', 'idempotency_key']));
      // Left out, the resource is the one the client's last look at the tab showed (the bridge fills it in, or refuses).
      expect(byName.steward_execute!.inputSchema.required).not.toContain('resource');
      expect(Object.keys(byName.steward_observe!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['tab_id', 'query', 'expand']));
      // Listing tools asks nothing of Steward (an unpaired client is offered no page tools).
      expect(link.calls).toEqual([]);
      expect(link.pageToolCalls).toEqual([]);
    });
  }

  it('says how to fix it when Steward is not connected, as a tool error rather than a protocol error', async () => {
    const link = new FakeLink();
    const session = await connectInMemory(link, await tempHome());
    closers.push(() => session.close());
    const result = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'STEWARD_UNAVAILABLE', retryable: true } });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain('steward-bridge install');
    expect(text).toMatch(/open the browser with Steward/i);
  });
});
