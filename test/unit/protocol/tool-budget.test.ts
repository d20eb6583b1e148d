import { describe, expect, it } from 'vitest';
import { capForAgent } from '../../../src/protocol/tool-budget.ts';
import { TOOL_TEXT_BUDGET, type ToolDescriptor } from '../../../src/protocol/webmcp.ts';

const tool = (extra: Partial<ToolDescriptor> = {}): ToolDescriptor => ({
  name: 'return_policy',
  description: 'Returns the policy.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  kind: 'imperative',
  ...extra,
});

describe('capForAgent: Chrome’s text budgets for what reaches an agent', () => {
  it('cuts a description over 500 characters to 500, ending in an ellipsis, and flags it', () => {
    const capped = capForAgent(tool({ description: `${'a'.repeat(600)}SECRET-TAIL` }));
    expect(capped.description).toHaveLength(TOOL_TEXT_BUDGET.description);
    expect(capped.description.endsWith('…')).toBe(true);
    expect(capped.description).not.toContain('SECRET-TAIL');
    expect(capped.truncated).toEqual({ description: true });
  });

  it('leaves text within the budgets as it was, unflagged', () => {
    const exact = tool({ description: 'd'.repeat(500), inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'q'.repeat(150) } } } });
    expect(capForAgent(exact)).toBe(exact);
  });

  it('cuts parameter descriptions over 150 characters, at any depth, and names where', () => {
    const capped = capForAgent(
      tool({
        inputSchema: {
          type: 'object',
          properties: {
            category: { type: 'string', description: `${'c'.repeat(200)}TAIL` },
            address: { type: 'object', properties: { street: { type: 'string', description: 's'.repeat(151) } } },
            short: { type: 'string', description: 'fine' },
          },
        },
      }),
    );
    const props = capped.inputSchema.properties as Record<string, { description?: string; properties?: Record<string, { description: string }> }>;
    expect(props.category!.description).toHaveLength(TOOL_TEXT_BUDGET.parameterDescription);
    expect(props.category!.description).not.toContain('TAIL');
    expect(props.address!.properties!.street!.description).toHaveLength(150);
    expect(props.short!.description).toBe('fine');
    expect(capped.truncated).toEqual({ parameters: ['category', 'address.street'] });
    expect(capped.description).toBe('Returns the policy.');
  });

  it('never touches the name, nor values the page gave as data (enum, default)', () => {
    const long = 'x'.repeat(300);
    const capped = capForAgent(
      tool({
        name: 'lookup_order_status_with_carrier_details',
        longName: true,
        description: long + long,
        inputSchema: { type: 'object', properties: { mode: { type: 'object', default: { description: long }, enum: [{ description: long }] } } },
      }),
    );
    expect(capped.name).toBe('lookup_order_status_with_carrier_details');
    expect(capped.longName).toBe(true);
    const mode = (capped.inputSchema.properties as Record<string, { default: { description: string }; enum: Array<{ description: string }> }>).mode!;
    expect(mode.default.description).toBe(long);
    expect(mode.enum[0]!.description).toBe(long);
    expect(capped.truncated).toEqual({ description: true });
  });
});
