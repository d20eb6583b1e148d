import { describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH, AuditEntry, UnsealedAuditEntry } from '../../../src/protocol/audit.ts';
import { accepts, rejects } from './helpers.ts';

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);
const dispatch = () => ({
  audit_id: 'audit_9812',
  seq: 5,
  at: '2026-08-03T11:52:13Z',
  kind: 'dispatch',
  agent_id: 'agent:copilot',
  token_id: 'tok_3f9a1c',
  receipt_id: 'approval_274',
  idempotency_key: 'act_8f31',
  action: 'orders.cancel',
  resource: { type: 'order', id: 'ORD-1024' },
  input_hash: `sha256:${'c'.repeat(64)}`,
  state_version_before: 17,
  prev_hash: H1,
  hash: H2,
});

describe('AuditEntry', () => {
  it('accepts a dispatch entry and the first entry of a chain', () => {
    accepts(AuditEntry, dispatch());
    accepts(AuditEntry, {
      audit_id: 'audit_0',
      seq: 0,
      at: '2026-08-03T11:40:00Z',
      kind: 'observation',
      agent_id: 'agent:copilot',
      state_version_after: 'fp-6c1d0e9a',
      prev_hash: AUDIT_GENESIS_HASH,
      hash: H1,
    });
  });
  it('rejects hashes that are not hex sha256', () => {
    rejects(AuditEntry, { ...dispatch(), hash: 'A'.repeat(64) }, 'hash', /64 lower-case hex/);
    rejects(AuditEntry, { ...dispatch(), prev_hash: `sha256:${H1}` }, 'prev_hash', /64 lower-case hex/);
  });
  it('the first entry chains from the genesis hash', () => {
    rejects(AuditEntry, { ...dispatch(), seq: 0 }, 'prev_hash', /genesis hash/);
  });
  it('a dispatch is traceable to its token, key and input; an approval to its receipt', () => {
    const { token_id: _t, input_hash: _h, ...bare } = dispatch();
    rejects(AuditEntry, bare, 'token_id', /required for a dispatch entry/);
    rejects(AuditEntry, bare, 'input_hash', /required for a dispatch entry/);
    const { receipt_id: _r, ...noReceipt } = dispatch();
    rejects(AuditEntry, { ...noReceipt, kind: 'approval' }, 'receipt_id', /required for a approval entry/);
  });
  it('rejects unknown kinds and outcomes that are not snake_case', () => {
    rejects(AuditEntry, { ...dispatch(), kind: 'edit' }, 'kind', /expected one of/);
    rejects(AuditEntry, { ...dispatch(), outcome: 'Pending Confirmation' }, 'outcome', /snake_case/);
  });
  it('UnsealedAuditEntry is the entry without its hash', () => {
    const { hash: _, ...unsealed } = dispatch();
    expect(accepts(UnsealedAuditEntry, unsealed)).not.toHaveProperty('hash');
  });
});
