import type { ChainStart } from '../../../src/webmcp/continuations.ts';

/** The shop page's `checkout` tool as the pipeline planned it: consequential, approved by the person. */
export const CHECKOUT_DESCRIPTION: ChainStart['planned']['description'] = {
  action: 'checkout',
  via: 'webmcp',
  read_only: false,
  consequential: true,
  payment: false,
  untrusted_content: false,
  requires_approval: true,
  input_schema: { type: 'object', properties: {} },
};

/** A chain's start for `checkout` in tab 7 of `origin`, with no deadline of its own. */
export const checkoutChain = (origin: string, start: Pick<ChainStart, 'action_id' | 'idempotency_key'> & Partial<ChainStart>): ChainStart => ({
  tabId: 7,
  origin,
  tool: 'checkout',
  planned: { description: CHECKOUT_DESCRIPTION },
  ends_by: Number.MAX_SAFE_INTEGER,
  ...start,
});
