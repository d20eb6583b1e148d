import type { ObservedState } from '../../protocol/observed-state.ts';

const withoutHash = (u: string) => u.split('#')[0];

/**
 * A page's tool said it failed (it threw, or answered `isError`). Whether that is the whole story
 * is decided by re-observing: the same page at the same state_version means nothing Steward can
 * see changed — `failed`; a new state_version or another page, or no observation at all, means it
 * may have done part of its work — `unknown`.
 */
export function afterToolFailure(before: Pick<ObservedState, 'state_version' | 'url'>, after: Pick<ObservedState, 'state_version' | 'url'> | null): 'failed' | 'unknown' {
  if (!after) return 'unknown';
  return after.state_version === before.state_version && withoutHash(after.url) === withoutHash(before.url) ? 'failed' : 'unknown';
}
