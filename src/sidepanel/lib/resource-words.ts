import type { ApprovalRequest } from '../../protocol/approval.ts';
import type { ResourceIdentity } from '../../protocol/observed-state.ts';
import type { ResourceRef } from '../../protocol/resource.ts';
import { t } from '../../base/i18n.ts';
import { humanize } from './labels.ts';

/**
 * How the panel names the resource an action or an observation is about, without ever showing a
 * guess as if it were known (issue 14): an identified resource by its type and id; a guessed one
 * the same, with "Steward's guess" and where it was read; an unknown one as "this page", with
 * "Steward could not tell which order this is".
 */
export interface ResourceWords {
  /** Inline name: `order ORD-1024`, or `this page` when Steward could not tell. */
  name: string;
  /** Said beside the name when it is not certain; absent when it is. */
  doubt?: string;
}

export function resourceWords(resource: ResourceRef, identity: ResourceIdentity | undefined): ResourceWords {
  const named = `${humanize(resource.type)} ${resource.id}`;
  // A page resource from an observation made before certainty was reported is still the page itself.
  const certainty = identity?.certainty ?? (resource.type === 'page' ? 'unknown' : 'identified');
  if (certainty === 'identified') return { name: named };
  if (certainty === 'guessed') {
    return { name: named, doubt: identity?.basis ? t('resource_guess_from', identity.basis) : t('resource_guess') };
  }
  const likely = identity?.likely_type;
  return {
    name: t('resource_this_page'),
    doubt: likely ? t('resource_which_type', humanize(likely)) : t('resource_which'),
  };
}

/**
 * How a card names what its action acts on (issue 27, item 11): the resource its input names, even
 * where the page shows another (then `page` says what the page shows); "not known" in words when
 * the input names none; the page's own resource only for a control of that page.
 */
export function actingWords(r: Pick<ApprovalRequest, 'resource' | 'resource_identity' | 'acts_on'>): ResourceWords & { page?: string } {
  const a = r.acts_on;
  if (!a || (a.known && a.resource.type === r.resource.type && a.resource.id === r.resource.id)) return resourceWords(r.resource, r.resource_identity);
  const page = resourceWords(r.resource, r.resource_identity).name;
  if (a.known) return { name: `${humanize(a.resource.type)} ${a.resource.id}`, doubt: t('acting_read_from', a.basis, page), page };
  if (a.basis.startsWith('a control of')) return resourceWords(r.resource, r.resource_identity);
  return { name: t('acting_unknown'), doubt: t('acting_cannot_tell', a.basis), page };
}
