import { describe, expect, it } from 'vitest';
import { ApprovalDecision, ApprovalReceipt, ApprovalRequest } from '../../../src/protocol/approval.ts';
import { resourceScopeCovers, resourceScopeOf } from '../../../src/protocol/resource.ts';
import { DelegatedAgentToken } from '../../../src/protocol/token.ts';
import { accepts, example, rejects } from './helpers.ts';

const HASH = `sha256:${'ab'.repeat(32)}`;
const token = () => example('agentToken');

describe('DelegatedAgentToken', () => {
  it('rejects a token that expires before (or when) it is issued', () => {
    rejects(DelegatedAgentToken, { ...token(), expires_at: '2026-08-03T11:00:00Z' }, 'expires_at', /after issued_at/);
    rejects(DelegatedAgentToken, { ...token(), expires_at: token().issued_at }, 'expires_at', /after issued_at/);
  });
  it('rejects malformed ids, scopes, origins and types', () => {
    rejects(DelegatedAgentToken, { ...token(), token_id: 'abc' }, 'token_id', /tok_<id>/);
    rejects(DelegatedAgentToken, { ...token(), token_type: 'bearer' }, 'token_type', /delegated_agent_token/);
    rejects(DelegatedAgentToken, { ...token(), agent_id: 'copilot' }, 'agent_id', /agent:<name>/);
    rejects(DelegatedAgentToken, { ...token(), scope: ['orders.cancel'] }, 'scope[0]', /<namespace>:<verb>/);
    rejects(DelegatedAgentToken, { ...token(), scope: [] }, 'scope', /at least one scope/);
    rejects(DelegatedAgentToken, { ...token(), scope: ['orders:read', 'orders:read'] }, 'scope[1]', /repeats/);
    rejects(DelegatedAgentToken, { ...token(), origins: ['http://localhost:4100/'] }, 'origins[0]', /no path, no trailing slash/);
    rejects(DelegatedAgentToken, { ...token(), resource_scope: 'ORD-1024' }, 'resource_scope', /<type>:<id>/);
    rejects(DelegatedAgentToken, { ...token(), payment: 'no' }, 'payment', /boolean/);
    rejects(DelegatedAgentToken, { ...token(), revocable_at: 'revoke' }, 'revocable_at', /path starting with/);
  });
  it('accepts wildcards and revocation', () => {
    accepts(DelegatedAgentToken, { ...token(), scope: ['orders:*'], resource_scope: '*', revoked_at: '2026-08-03T11:40:00Z' });
  });
});

describe('resource scopes', () => {
  const ref = { type: 'order', id: 'ORD-1024' };
  it('cover exactly, by type, or everything', () => {
    expect(resourceScopeOf(ref)).toBe('order:ORD-1024');
    expect(resourceScopeCovers('order:ORD-1024', ref)).toBe(true);
    expect(resourceScopeCovers('order:*', ref)).toBe(true);
    expect(resourceScopeCovers('*', ref)).toBe(true);
    expect(resourceScopeCovers('order:ORD-1025', ref)).toBe(false);
    expect(resourceScopeCovers('invoice:*', ref)).toBe(false);
  });
});

const receipt = () => ({
  receipt_id: 'approval_274',
  action: 'orders.cancel',
  resource: { type: 'order', id: 'ORD-1024' },
  input_hash: HASH,
  state_version: 17,
  agent_id: 'agent:copilot',
  token_id: 'tok_3f9a1c',
  approved_by: 'user:123',
  scope: 'order:ORD-1024',
  issued_at: '2026-08-03T11:50:00Z',
  expires_at: '2026-08-03T12:05:00Z',
});

describe('ApprovalReceipt', () => {
  it('binds one action, resource, input hash and state_version', () => {
    accepts(ApprovalReceipt, receipt());
    accepts(ApprovalReceipt, { ...receipt(), state_version: 'fp-6c1d0e9a' });
  });
  it('rejects a non-sha256 input hash', () => {
    rejects(ApprovalReceipt, { ...receipt(), input_hash: `md5:${'a'.repeat(32)}` }, 'input_hash', /"sha256:" followed by 64/);
    rejects(ApprovalReceipt, { ...receipt(), input_hash: 'sha256:xyz' }, 'input_hash', /64 lower-case hex/);
    rejects(ApprovalReceipt, { ...receipt(), input_hash: 'ab'.repeat(32) }, 'input_hash', /sha256:/);
  });
  it('rejects a receipt whose scope is not exactly its resource, or that expires first', () => {
    rejects(ApprovalReceipt, { ...receipt(), scope: 'order:*' }, 'scope', /exactly one resource: must be "order:ORD-1024"/);
    rejects(ApprovalReceipt, { ...receipt(), scope: '*' }, 'scope', /exactly one resource/);
    rejects(ApprovalReceipt, { ...receipt(), expires_at: '2026-08-03T11:00:00Z' }, 'expires_at', /after issued_at/);
    rejects(ApprovalReceipt, { ...receipt(), state_version: undefined }, 'state_version', /required/);
  });
});

describe('ApprovalRequest and ApprovalDecision', () => {
  const request = () => ({
    request_id: 'apreq_51',
    agent_id: 'agent:copilot',
    token_id: 'tok_3f9a1c',
    origin: 'http://localhost:4100',
    action: 'orders.cancel',
    via: 'legacy_inference',
    resource: { type: 'order', id: 'ORD-1024' },
    input: { reason: 'ordered_by_mistake' },
    input_hash: HASH,
    idempotency_key: 'act_8f31',
    state: example('observedState'), // extra fields of the full observation are stripped
    reasons: [{ code: 'risky_control', detail: 'The button is named "Cancel order".' }, { code: 'not_read_only' }],
    requested_at: '2026-08-03T11:45:00Z',
    expires_at: '2026-08-03T11:55:00Z',
  });
  it('carries what a person needs to decide', () => {
    const r = accepts(ApprovalRequest, request());
    expect(r.state).not.toHaveProperty('url');
    expect(r.state.conflicts).toEqual(['canvas_total_not_observed']);
  });
  it('requires reasons and a valid state summary', () => {
    rejects(ApprovalRequest, { ...request(), reasons: [] }, 'reasons', /why approval is needed/);
    rejects(ApprovalRequest, { ...request(), reasons: [{ code: 'because' }] }, 'reasons[0].code', /expected one of/);
    rejects(ApprovalRequest, { ...request(), state: { ...example('observedState'), confidence: 2 } }, 'state.confidence', /between 0 and 1/);
  });
  it('decisions: approve echoes hash and version, deny may give a reason', () => {
    const common = { request_id: 'apreq_51', decided_by: 'user:local', decided_at: '2026-08-03T11:46:00Z' };
    accepts(ApprovalDecision, { ...common, decision: 'approve', input_hash: HASH, state_version: 17 });
    accepts(ApprovalDecision, { ...common, decision: 'deny', reason: 'Not now.' });
    rejects(ApprovalDecision, { ...common, decision: 'approve', state_version: 17 }, 'input_hash', /required/);
    rejects(ApprovalDecision, { ...common, decision: 'maybe' }, 'decision', /'approve' \| 'deny'/);
  });
});
