import type { Evidence } from '../../protocol/resource.ts';
import type { NetworkRecord, PageSnapshot } from '../../protocol/snapshot.ts';

/**
 * A claim is one source saying one thing about one field ("the DOM says state is
 * awaiting_payment, read from the badge after the heading"). Extractors produce claims per
 * source, independently; resolve.ts turns the claims for a field into a Fact with provenance.
 */
export interface Claim {
  /** snake_case fact name: resource_type, resource_id, state, total, placed_at, item_count, … */
  field: string;
  value: string | number | boolean | null;
  source: Evidence;
  /** How directly the source states it, in (0, 1]: a labelled value beats a guess from prose. */
  strength: number;
  /** Element the value was read from, when it has a ref. */
  ref?: string;
  /** Short human explanation of where the value came from (data, never instructions). */
  why: string;
}

/** The resource the page is about, once identified from the identity claims. */
export interface IdentifiedResource {
  type: string;
  id: string;
}

export interface ExtractContext {
  /** Without the texts the page changes on its own (volatile): fuse.ts leaves them out for every source. */
  snapshot: PageSnapshot;
  network: readonly NetworkRecord[];
  /** Set in the second pass, after the resource has been identified. */
  resource?: IdentifiedResource;
}

export type Extractor = (ctx: ExtractContext) => Claim[];

/** Fact names the fusion knows how to compare (anything else is compared as plain text). */
export const FIELD = {
  resourceType: 'resource_type',
  resourceId: 'resource_id',
  state: 'state',
  total: 'total',
  subtotal: 'subtotal',
  itemCount: 'item_count',
  totalQuantity: 'total_quantity',
  lineQuantities: 'line_quantities',
  lineItems: 'line_items',
} as const;

/**
 * Most claims one extractor makes per observation. A real page states its status a handful of
 * times; a page (or list) repeating "Status: …" thousands of times must not cost thousands of claims.
 */
export const MAX_CLAIMS_PER_EXTRACTOR = 200;

/** Quotes page text for a `why`, bounded so a hostile page cannot bloat the observation. */
export function quote(text: string, max = 80): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(t.length > max ? `${t.slice(0, max - 1)}…` : t);
}
