import { describe, expect, it } from 'vitest';
import { normalizeToolResult, normalizeTools, reportsToolError, type DeclarativeInfo, type RawTool } from '../../../src/webmcp/normalize.ts';
import { ToolDescriptor } from '../../../src/protocol/webmcp.ts';

/** The documented limit of a tool result, written out so a change to it fails here. */
const MAX_RESULT_CHARS = 100_000;

/** One tool as discovery lists it: its descriptor, or not ok when the listing drops it. */
function normalizeTool(raw: RawTool, declarative?: DeclarativeInfo) {
  const [tool] = normalizeTools([raw], () => declarative);
  return tool ? { ok: true as const, tool } : { ok: false as const };
}

/** The schema a tool declaring `raw` is listed with, and why it cannot run when it cannot. */
function normalizeInputSchema(raw: unknown) {
  const [tool] = normalizeTools([{ name: 't', description: 'd', inputSchema: raw }], () => undefined);
  return { schema: tool!.inputSchema, ...(tool!.schemaError !== undefined ? { error: tool!.schemaError } : {}) };
}

describe('normalizeInputSchema', () => {
  it('accepts an object schema as given', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    expect(normalizeInputSchema(schema)).toEqual({ schema });
  });

  it('parses a schema given as a JSON string (older Chrome builds)', () => {
    expect(normalizeInputSchema('{"type":"object","properties":{"n":{"type":"number"}}}').schema).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
    });
  });

  it('gives a tool without a schema an empty object schema', () => {
    expect(normalizeInputSchema(undefined)).toEqual({ schema: { type: 'object', properties: {} } });
  });

  it.each([
    ['{not json', 'not valid JSON'],
    ['[1,2]', 'must be a JSON object'],
    [{ type: 'string' }, 'type must be "object"'],
    [{ type: 'object', properties: [] }, '"properties" must be an object'],
    [{ type: 'object', required: 'q' }, '"required" must be an array of strings'],
    ['x'.repeat(70_000), 'limit'],
  ])('marks a malformed schema %#', (raw, message) => {
    const result = normalizeInputSchema(raw);
    expect(result.error).toContain(message);
    expect(result.schema).toEqual({ type: 'object', properties: {} });
  });

  it('refuses a cyclic schema without throwing', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(normalizeInputSchema(cyclic).error).toContain('cannot be serialised');
  });
});

describe('normalizeTool', () => {
  it('keeps known annotations, Chromium’s `debugging` among them, and drops the rest', () => {
    const result = normalizeTool({
      name: 'ro',
      description: 'd',
      annotations: { readOnlyHint: true, untrustedContentHint: true, debugging: true, debugHint: true, consequentialHint: 'yes' },
    });
    expect(result.ok && result.tool.annotations).toEqual({ readOnlyHint: true, untrustedContentHint: true, debugging: true });
  });

  it('keeps a name over the 30-character budget whole (it is how the tool is called) and flags it', () => {
    const long = normalizeTool({ name: 'lookup_order_status_with_carrier', description: 'd' });
    expect(long.ok && long.tool).toMatchObject({ name: 'lookup_order_status_with_carrier', longName: true });
    const fits = normalizeTool({ name: 'x'.repeat(30), description: 'd' });
    expect(fits.ok && fits.tool.longName).toBeUndefined();
  });

  it('keeps the page’s whole description for the person (the agent’s copy is cut later)', () => {
    const result = normalizeTool({ name: 'policy', description: 'p'.repeat(2000) });
    expect(result.ok && result.tool.description).toHaveLength(2000);
    expect(result.ok && result.tool.truncated).toBeUndefined();
  });

  it('marks declarative tools and whether they submit themselves', () => {
    const result = normalizeTool({ name: 'book', description: 'Book' }, { autosubmit: false });
    expect(result.ok && result.tool).toMatchObject({ kind: 'declarative', autosubmit: false });
  });

  it('keeps a tool with a broken schema but marks it', () => {
    const result = normalizeTool({ name: 'bad', description: 'x', inputSchema: '{' });
    expect(result.ok && result.tool.schemaError).toContain('not valid JSON');
  });

  it('drops a tool without a usable name', () => {
    expect(normalizeTool({ name: '  ', description: 'x' }).ok).toBe(false);
    expect(normalizeTool({ name: 42, description: 'x' }).ok).toBe(false);
  });

  it('produces descriptors that satisfy the protocol schema', () => {
    const result = normalizeTool({ name: 't', title: 'T', description: 'd'.repeat(20_000), inputSchema: { type: 'object' } });
    expect(result.ok).toBe(true);
    if (result.ok) expect(() => ToolDescriptor.parse(result.tool)).not.toThrow();
  });
});

describe('normalizeTools', () => {
  it('keeps the first of two tools with the same name, so a page cannot shadow a tool', () => {
    const tools = normalizeTools(
      [
        { name: 'a', description: 'first' },
        { name: 'a', description: 'second' },
        { name: 'b', description: 'b' },
      ],
      () => undefined,
    );
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ['a', 'first'],
      ['b', 'b'],
    ]);
  });

  it('caps a flood of tools', () => {
    const raws = Array.from({ length: 5000 }, (_, i) => ({ name: `t${i}`, description: '' }));
    expect(normalizeTools(raws, () => undefined)).toHaveLength(512);
  });
});

describe('normalizeToolResult', () => {
  it('passes plain strings and null through', () => {
    expect(normalizeToolResult('plain')).toEqual({ result: 'plain', truncated: false });
    expect(normalizeToolResult(null)).toEqual({ result: null, truncated: false });
  });

  it('extracts the text of an MCP CallToolResult, as an object or serialised by Chrome', () => {
    const call = {
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    };
    expect(normalizeToolResult(call).result).toBe('one\ntwo');
    expect(normalizeToolResult(JSON.stringify(call)).result).toBe('one\ntwo');
  });

  it('tells a tool’s error answer (isError, as an object or serialised by Chrome) from its result', () => {
    const failed = { content: [{ type: 'text', text: 'That slot is taken.' }], isError: true };
    expect(reportsToolError(failed)).toBe(true);
    expect(reportsToolError(JSON.stringify(failed))).toBe(true);
    expect(reportsToolError({ ...failed, isError: false })).toBe(false);
    expect(reportsToolError('Booking failed')).toBe(false);
    expect(reportsToolError(null)).toBe(false);
  });

  it('keeps JSON that is not a CallToolResult as it is', () => {
    expect(normalizeToolResult('{"doctors":[]}').result).toBe('{"doctors":[]}');
  });

  it('truncates huge outputs and says so', () => {
    const out = normalizeToolResult('x'.repeat(MAX_RESULT_CHARS + 10));
    expect(out.truncated).toBe(true);
    expect(out.result).toHaveLength(MAX_RESULT_CHARS);
  });
});
