import type { AvailableAction } from '../protocol/action.ts';
import type { ExpectedEffect } from '../protocol/expectation.ts';

/**
 * The state an action leads to, from the effects it declares: `order_cancelled` on an `order` →
 * `cancelled`. Effects about something else (`item_added`) say nothing about the state.
 */
export function declaredEffect(resourceType: string, description: Pick<AvailableAction, 'changes'>): ExpectedEffect | undefined {
  const prefix = `${resourceType}_`;
  const change = description.changes?.find((c) => c.startsWith(prefix) && c.length > prefix.length);
  return change ? { state: change.slice(prefix.length) } : undefined;
}
