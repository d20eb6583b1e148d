import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { resolveCapability } from '../../../src/pipeline/capability.ts';
import { dispatch } from '../../../src/pipeline/execution/router.ts';
import type { ExecutionCall, ExecutionReport, Executors } from '../../../src/pipeline/ports.ts';
import { FakeShop, ORDER } from './fakes.ts';

const book: ToolDescriptor = {
  name: 'book_appointment',
  description: 'Book a slot',
  inputSchema: { type: 'object', properties: { date: { type: 'string', format: 'date' }, name: { type: 'string', minLength: 1 } }, required: ['date', 'name'], additionalProperties: false },
  annotations: { consequentialHint: true },
  kind: 'imperative',
};
const req = (action: string, input: Record<string, unknown> = {}) => ActionRequest.parse({ action, resource: ORDER, input, idempotency_key: 'k' });
const all = new FakeShop().executors();

describe('resolveCapability: the most authoritative path available', () => {
  it('prefers site_contract > webmcp > adapter > legacy_inference among paths with an executor', () => {
    const shop = new FakeShop();
    const o = shop.observation('ORD-1024', 'adapter')!;
    o.actions = [...o.actions!, { ...o.actions!.find((a) => a.action === 'orders.cancel')!, via: 'site_contract' }];
    expect(resolveCapability(req('orders.cancel'), o, all)).toMatchObject({ ok: true, capability: { description: { via: 'site_contract' } } });
    const { site_contract: _c, ...noContract } = all;
    expect(resolveCapability(req('orders.cancel'), o, noContract)).toMatchObject({ ok: true, capability: { description: { via: 'adapter' } } });
  });

  it('derives a WebMCP description from the tool’s annotations', () => {
    const shop = new FakeShop();
    shop.tools = [book, { ...book, name: 'list_slots', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, untrustedContentHint: true } }];
    const o = shop.observation('ORD-1024')!;
    expect(resolveCapability(req('book_appointment', { date: '2026-09-01', name: 'Ada' }), o, all)).toMatchObject({
      ok: true,
      capability: { description: { via: 'webmcp', read_only: false, consequential: true }, tool: { name: 'book_appointment' } },
    });
    expect(resolveCapability(req('list_slots'), o, all)).toMatchObject({ ok: true, capability: { description: { read_only: true, untrusted_content: true, requires_approval: false } } });
  });

  it('validates WebMCP input against the tool’s JSON Schema first → INVALID_INPUT with the violation', () => {
    const shop = new FakeShop();
    shop.tools = [book];
    const r = resolveCapability(req('book_appointment', { date: 'tomorrow' }), shop.observation('ORD-1024')!, all);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('INVALID_INPUT');
    expect(r.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['input']));
    expect(JSON.stringify(r.error.issues)).toMatch(/name|date/);
    const broken = resolveCapability(req('book_appointment', {}), { ...shop.observation('ORD-1024')!, tools: [{ ...book, schemaError: 'input schema is not valid JSON' }] }, all);
    expect(broken).toMatchObject({ ok: false, error: { code: 'INVALID_TOOL_SCHEMA', message: /refuses to evaluate \(input schema is not valid JSON\)/, issues: [{ path: 'input_schema' }] } });
    // A catastrophic schema that slipped past normalisation is refused by validation itself, never run.
    const redos = resolveCapability(
      req('book_appointment', { code: `${'a'.repeat(40)}!` }),
      { ...shop.observation('ORD-1024')!, tools: [{ ...book, inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } } }] },
      all,
    );
    expect(redos).toMatchObject({ ok: false, error: { code: 'INVALID_TOOL_SCHEMA', message: /exponential/ } });
  });

  it('validates contract and adapter input against the action’s schema too', () => {
    const r = resolveCapability(req('orders.cancel', { reason: 'x', extra: 1 }), new FakeShop().observation('ORD-1024')!, all);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('legacy primitives: a per-element entry for the ref, or Steward’s own description; hidden targets refused', () => {
    const o = new FakeShop().observation('ORD-1024')!;
    expect(resolveCapability(req('dom.click', { ref: 'e1' }), o, all)).toMatchObject({
      ok: true,
      capability: { description: { via: 'legacy_inference', consequential: true }, dom: { reasons: [{ code: 'risky_control' }] } },
    });
    expect(resolveCapability(req('dom.type', { ref: 'e4', text: 'x' }), o, all)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: /hidden/ } });
  });

  it('TOOL_NOT_FOUND when no path offers it', () => {
    const r = resolveCapability(req('orders.refund'), new FakeShop().observation('ORD-1024')!, all);
    expect(r).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect(r.ok || r.available_actions?.map((a) => a.action)).toContain('orders.cancel');
  });
});

describe('dispatch: no path claims more authority than it has', () => {
  const call = (over: Partial<ExecutionCall>): ExecutionCall =>
    ({
      action_id: 'act_1',
      action: 'x',
      resource: ORDER,
      input: {},
      idempotency_key: 'k',
      via: 'adapter',
      description: {} as never,
      agent_id: 'agent:a',
      token_id: 'tok_1',
      location: { kind: 'tab' },
      ctx: { agent_id: 'agent:a' },
      ...over,
    }) as ExecutionCall;
  const returning = (report: ExecutionReport): Executors => ({ adapter: { execute: async () => report }, webmcp: { execute: async () => report }, site_contract: { execute: async () => report } });

  it('only the site contract may report confirmed', async () => {
    const confirmed: ExecutionReport = { outcome: 'confirmed', resource_state: { state: 'cancelled', state_version: 18 } };
    expect(await dispatch(call({ via: 'site_contract' }), returning(confirmed))).toEqual(confirmed);
    expect(await dispatch(call({ via: 'adapter' }), returning(confirmed))).toEqual({ outcome: 'completed' });
  });

  it('a declarative form without toolautosubmit is accepted (waiting for the user), never done', async () => {
    const tool: ToolDescriptor = { ...book, kind: 'declarative', autosubmit: false };
    expect(await dispatch(call({ via: 'webmcp', tool }), returning({ outcome: 'completed' }))).toEqual({ outcome: 'accepted' });
    expect(await dispatch(call({ via: 'webmcp', tool: { ...tool, autosubmit: true } }), returning({ outcome: 'completed' }))).toEqual({ outcome: 'completed' });
  });

  it('an executor that throws may have had an effect; a missing executor did nothing', async () => {
    const throwing: Executors = { adapter: { execute: async () => Promise.reject(new Error('tab crashed')) } };
    expect(await dispatch(call({}), throwing)).toEqual({ outcome: 'failed', message: 'tab crashed', side_effect_possible: true });
    expect(await dispatch(call({ via: 'webmcp' }), throwing)).toMatchObject({ outcome: 'failed', side_effect_possible: false });
  });
});
