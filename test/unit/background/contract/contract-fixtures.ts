import { buildContract } from '../../../../sites/shop/agent/contract.ts';
import { AgentContract, TokenGrant } from '../../../../src/protocol/agent-contract.ts';

/** A contract like the reference shop's (orders), for tests that need one without the shop. */
export function demoContract(origin: string): AgentContract {
  // The reference shop's own document: the client is tested against what a real site publishes.
  return buildContract(origin);
}

export function demoGrant(overrides: Partial<TokenGrant> = {}): TokenGrant {
  return TokenGrant.parse({
    token_type: 'Bearer',
    token: 'eyJhbGciOiJFZERTQSJ9.test-token-body.signature',
    token_id: 'tok_site_1',
    scopes: ['orders:read', 'orders:cancel'],
    resource_scope: ['order:*'],
    payment: false,
    expires_at: '2099-01-01T00:00:00.000Z',
    key_thumbprint: 'A'.repeat(43),
    granted_by: 'Jordan Lee',
    ...overrides,
  });
}
