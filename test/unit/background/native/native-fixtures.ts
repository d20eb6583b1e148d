import { AgentContract, TokenGrant } from '../../../../src/protocol/agent-contract.ts';

/** A contract like the reference shop's (orders), for tests that need one without the shop. */
export function demoContract(origin: string): AgentContract {
  return AgentContract.parse({
    spec: 'steward-contract/1',
    site: { name: 'Larkspur Goods', origin },
    resources: [
      {
        type: 'order',
        title: 'Order',
        scope_namespace: 'orders',
        page_path_template: '/orders/{id}',
        states: ['awaiting_payment', 'paid', 'cancellation_pending', 'shipped', 'delivered', 'cancelled'].map((name) => ({ name, title: name, terminal: name === 'cancelled' })),
      },
    ],
    actions: [
      {
        name: 'orders.cancel',
        resource_type: 'order',
        title: 'Cancel order',
        read_only: false,
        consequential: true,
        requires_approval: true,
        changes: ['order_cancelled'],
        allowed_in_states: ['awaiting_payment', 'paid'],
        input_schema: { type: 'object', properties: { reason: { type: 'string', enum: ['ordered_by_mistake', 'other'] } }, required: ['reason'] },
        may_be_async: true,
      },
      {
        name: 'orders.track',
        resource_type: 'order',
        title: 'Track order',
        read_only: true,
        consequential: false,
        requires_approval: false,
        allowed_in_states: ['shipped', 'delivered'],
        input_schema: { type: 'object', properties: {} },
      },
    ],
    endpoints: {
      resource_state: '/agent/v1/resources/{type}/{id}',
      execute: '/agent/v1/actions/execute',
      action_status: '/agent/v1/actions/{action_id}',
      token: '/agent/v1/tokens',
      revoke: '/agent/v1/tokens/revoke',
    },
    auth: {
      token_type: 'delegated',
      signature: { profile: 'web-bot-auth', algorithms: ['ed25519'], required_components: ['@method', '@authority', '@path', 'signature-agent'], max_validity_s: 300 },
      scopes: [
        { scope: 'orders:read', title: 'See your orders' },
        { scope: 'orders:cancel', title: 'Cancel your orders' },
      ],
      max_token_ttl_s: 86_400,
    },
  });
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
