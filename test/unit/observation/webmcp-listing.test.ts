import { describe, expect, it } from 'vitest';
import { observedFor } from '../../../src/background/tools/agent-view.ts';
import { PERSON_AGENT_ID } from '../../../src/background/tools/run-from-panel.ts';
import { withoutDebuggingTools } from '../../../src/observation/fusion/webmcp-actions.ts';
import { renderSnapshot } from '../../../src/observation/render/index.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { blankSnapshot, expectValid, fuse } from './fixtures/fusion-helpers.ts';

const tool = (name: string, extra: Partial<ToolDescriptor> = {}): ToolDescriptor => ({
  name,
  description: `${name} does one thing.`,
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  kind: 'imperative',
  ...extra,
});

const LONG = `Returns the policy. ${'Exceptions apply to opened items. '.repeat(30)}SECRET-TAIL`;
const tools = [
  tool('check_stock'),
  tool('return_policy', { description: LONG, inputSchema: { type: 'object', properties: { category: { type: 'string', description: `${'c'.repeat(160)}PARAM-TAIL` } } } }),
  tool('lookup_order_status_with_carrier_details', { longName: true }),
  tool('dump_debug_state', { annotations: { readOnlyHint: true, debugging: true } }),
];
const snapshot = blankSnapshot({ url: 'https://shop.test/listing' });
const observed = expectValid(fuse({ snapshot, tools }));

describe('what an agent receives of a page’s tools', () => {
  it('tool and action descriptions within 500 characters, parameter descriptions within 150, flagged', () => {
    const policy = observed.tools?.find((t) => t.name === 'return_policy');
    expect(policy?.description).toHaveLength(500);
    expect(policy?.truncated).toEqual({ description: true, parameters: ['category'] });
    expect(JSON.stringify(observed)).not.toContain('SECRET-TAIL');
    expect(JSON.stringify(observed)).not.toContain('PARAM-TAIL');
    expect(observed.actions?.find((a) => a.action === 'return_policy')?.description).toHaveLength(500);
    expect(observed.tools?.find((t) => t.name === 'check_stock')?.truncated).toBeUndefined();
  });

  it('the rendering says what was cut and which name is over budget', () => {
    const text = renderSnapshot(snapshot, { observed, tools: observed.tools ?? [] });
    const line = (name: string) => text.split('\n').find((l) => l.includes(`${name}(`)) ?? '';
    expect(line('return_policy')).toContain('description truncated');
    expect(line('return_policy')).toContain('parameter descriptions truncated: category');
    expect(line('lookup_order_status_with_carrier_details')).toContain('name over 30 characters');
    expect(line('check_stock')).not.toContain('truncated');
  });

  it('a debugging tool is in none of the agent’s lists, nor in its rendering', () => {
    expect(observed.available_actions).toContain('dump_debug_state');
    const agent = expectValid(withoutDebuggingTools(observed));
    expect(agent.tools?.map((t) => t.name)).toEqual(['check_stock', 'return_policy', 'lookup_order_status_with_carrier_details']);
    expect(agent.actions?.map((a) => a.action)).not.toContain('dump_debug_state');
    expect(agent.available_actions).not.toContain('dump_debug_state');
    expect(agent.available_actions).toContain('check_stock');
    expect(agent.state_version).toBe(observed.state_version);
    expect(renderSnapshot(snapshot, { observed: agent, tools: agent.tools ?? [] })).not.toContain('dump_debug_state');
  });

  it('the person always sees it; an agent only when Settings shows debugging tools', () => {
    const names = (s: typeof observed) => s.tools?.map((t) => t.name) ?? [];
    expect(names(observedFor(PERSON_AGENT_ID, observed, false))).toContain('dump_debug_state');
    expect(names(observedFor('agent:copilot', observed, false))).not.toContain('dump_debug_state');
    expect(names(observedFor('agent:copilot', observed, true))).toContain('dump_debug_state');
  });
});
