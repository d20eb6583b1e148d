import { describe, expect, it } from 'vitest';
import { MemoryRecord } from '../../../src/protocol/memory.ts';
import { accepts, rejects } from './helpers.ts';

const durable = (kind: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'mem_1',
  layer: 'durable',
  kind,
  agent_id: 'agent:copilot',
  resource: { type: 'order', id: 'ORD-1024' },
  payload,
  recorded_at: '2026-08-03T11:40:00Z',
  ...extra,
});

describe('MemoryRecord', () => {
  it('session memory holds working state', () => {
    accepts(MemoryRecord, { id: 'mem_2', layer: 'session', kind: 'pending_action', session_id: 's1', payload: { idempotency_key: 'act_8f31' }, recorded_at: '2026-08-03T11:40:00Z' });
    accepts(MemoryRecord, { id: 'mem_3', layer: 'session', kind: 'tool_result', session_id: 's1', payload: { tabId: 7 }, recorded_at: '2026-08-03T11:40:00Z' });
  });
  it('each layer only holds its own kinds', () => {
    rejects(MemoryRecord, durable('plan', {}), 'kind', /expected one of/);
    rejects(MemoryRecord, { ...durable('unfinished_intent', {}), layer: 'session', session_id: 's1' }, 'kind', /expected one of/);
    rejects(MemoryRecord, durable('unfinished_intent', {}, { layer: 'forever' }), 'layer', /'session' \| 'durable'/);
  });
  it('durable memory keeps intents, ids, artifacts, permissions and preferences', () => {
    accepts(MemoryRecord, durable('unfinished_intent', { goal: 'cancel order ORD-1024', idempotency_key: 'act_8f31' }, { ttl_ms: 86_400_000 }));
    accepts(MemoryRecord, durable('resource_id', { url_hint: 'http://localhost:4100/orders/ORD-1024' }));
    accepts(MemoryRecord, durable('preference', { language: 'en' }));
  });
  it('refuses tab ids, selectors, scroll positions, page markup and tokens, at any depth', () => {
    rejects(MemoryRecord, durable('resource_id', { tabId: 12 }), 'payload.tabId', /must not be persisted \(tab_id\)/);
    rejects(MemoryRecord, durable('resource_id', { where: { tab_id: 12 } }), 'payload.where.tab_id', /tab_id/);
    rejects(MemoryRecord, durable('artifact', { steps: [{ css_selector: '#pay' }] }), 'payload.steps[0].css_selector', /dom_selector/);
    rejects(MemoryRecord, durable('resource_id', { scrollY: 400 }), 'payload.scrollY', /scroll_position/);
    rejects(MemoryRecord, durable('artifact', { outerHTML: '<div>' }), 'payload.outerHTML', /transient_page_state/);
    rejects(MemoryRecord, durable('granted_permission', { token: 'tok_x' }), 'payload.token', /token store/);
  });
  it('refuses a current-state conclusion outside a history_only snapshot', () => {
    rejects(MemoryRecord, durable('resource_id', { state: 'awaiting_payment' }), 'payload.state', /mutable_conclusion_as_current/);
    const snapshot = durable('state_snapshot', { state: 'awaiting_payment' }, { state_version: 'fp-6c1d0e9a', history_only: true, ttl_ms: 600_000 });
    accepts(MemoryRecord, snapshot);
    rejects(MemoryRecord, { ...snapshot, history_only: false }, 'history_only', /history_only: true/);
    rejects(MemoryRecord, { ...snapshot, state_version: undefined }, 'state_version', /state_version it saw/);
  });
  it('lists what is never persisted, each with a reason', () => {
    const oneOfEach = { tab_id: 'windowId', dom_selector: 'xpath', scroll_position: 'scrollTop', transient_page_state: 'innerHTML', expired_token: 'password', mutable_conclusion_as_current: 'state' };
    for (const [category, key] of Object.entries(oneOfEach)) {
      rejects(MemoryRecord, durable('artifact', { [key]: 'x' }), `payload.${key}`, new RegExp(`must not be persisted \\(${category}\\): \\S`));
    }
    const parsed = MemoryRecord.safeParse(durable('artifact', { a: [{ 'tab-id': 1 }], frameId: 0 }));
    expect(parsed.error?.issues.map((i) => /\((\w+)\)/.exec(i.message)?.[1])).toEqual(['tab_id', 'tab_id']);
    accepts(MemoryRecord, durable('resource_id', { token_id: 'tok_1', resource_id: 'ORD-1' }));
  });
});
