import type { SnapshotTable, SnapshotText } from '../../protocol/snapshot.ts';
import { FIELD, MAX_CLAIMS_PER_EXTRACTOR, quote, type Claim, type Extractor } from '../read/claims.ts';
import { readLabelled, standaloneState } from './field-labels.ts';
import type { LineItem } from '../read/line-item.ts';
import { itemClaims } from './items.ts';
import { cleanText } from '../clean-text.ts';
import { LIVE_ROLES } from '../../protocol/snapshot.ts';
import { blocksAfterHeading, labelledValues, resourceHeadingIndex } from '../read/page-text.ts';
import { tablesOf } from './tables.ts';
import { parseCount, parseMoney, pathOf, resourcesInPath } from '../read/values.ts';

/**
 * What the page's DOM says outside the accessibility announcements: where its forms post
 * (`/orders/ORD-1024/cancel`), labelled values (`Status: Shipped`), the badge beside the heading
 * that names the resource, and data tables (line items, totals).
 */

/** Forms post to the resource they act on; their first collection/id pair names it. */
function formTargets(ctx: Parameters<Extractor>[0]): Claim[] {
  const claims: Claim[] = [];
  const seen = new Set<string>();
  for (const form of ctx.snapshot.forms) {
    const path = form.action ? pathOf(form.action, ctx.snapshot.url) : undefined;
    const resource = path ? resourcesInPath(path)[0] : undefined;
    if (!resource || seen.has(`${resource.type}/${resource.id}`)) continue;
    seen.add(`${resource.type}/${resource.id}`);
    const why = `form posts to ${quote(path!)}`;
    claims.push(
      { field: FIELD.resourceType, value: resource.type, source: 'dom', strength: 0.8, ref: form.ref, why },
      { field: FIELD.resourceId, value: resource.id, source: 'dom', strength: 0.8, ref: form.ref, why },
    );
  }
  return claims;
}

function column(headers: readonly string[], re: RegExp): number {
  return headers.findIndex((h) => re.test(cleanText(h)));
}

/** A table with a Quantity column lists line items; a row whose first cell says Total holds the total. */
function tableClaims(table: SnapshotTable, index: number): Claim[] {
  const claims: Claim[] = [];
  const why = `table ${quote(table.caption ?? table.headers.join(' | '))}`;
  const qty = column(table.headers, /^(?:qty|quantity)\.?$/i);
  const items: LineItem[] = [];
  for (const row of table.rows) {
    const first = cleanText(row[0] ?? '');
    const label = /^((?:order |grand )?total|sub-?total)\s*:?$/i.exec(first)?.[1];
    if (label) {
      const money = row
        .slice(1)
        .map(parseMoney)
        .find((m) => m !== undefined);
      if (money !== undefined) {
        const field = /sub/i.test(label) ? FIELD.subtotal : FIELD.total;
        claims.push({ field, value: money, source: 'dom', strength: 0.9, ref: table.ref, why: `${why} row ${quote(first)}` });
      }
      continue;
    }
    const quantity = qty >= 0 ? parseCount(row[qty] ?? '') : undefined;
    if (quantity !== undefined) items.push({ name: first, quantity });
  }
  // A truncated table cannot say how many lines there are.
  const complete = table.rowCount === undefined || table.rowCount <= table.rows.length;
  if (items.length > 0 && complete) claims.push(...itemClaims(items, 'dom', 0.9, `${why} (#${index + 1})`, table.ref));
  return claims;
}

/**
 * The page's own heading: the one naming the resource when there is one, else the page's first
 * level-1 heading (a status badge beside it is the page's state: `Checkout [Awaiting payment]`).
 */
function mainHeading(texts: readonly SnapshotText[], resourceId: string | undefined): number {
  if (resourceId !== undefined) return resourceHeadingIndex(texts, resourceId);
  return texts.findIndex((t) => t.role === 'heading' && t.level === 1);
}

/** Texts that can be a status badge: short page text, not a heading, a control's label, an announcement or a list's row. */
const BADGE_ROLES = new Set([undefined, 'paragraph', 'note', 'definition', 'status']);

/**
 * The page's one status badge, wherever it sits (a chip beside a title that is not marked up as
 * a heading): exactly one text on the page is nothing but a state. Two or more is a list.
 */
function loneBadge(texts: readonly SnapshotText[]): Claim[] {
  const badges = texts.filter((t) => BADGE_ROLES.has(t.role) && (t.container?.row ?? 0) === 0 && standaloneState(cleanText(t.text)) !== undefined);
  if (badges.length !== 1) return [];
  const [badge] = badges as [SnapshotText];
  return [
    {
      field: FIELD.state,
      value: standaloneState(cleanText(badge.text))!,
      source: 'dom',
      strength: 0.6,
      ...(badge.ref ? { ref: badge.ref } : {}),
      why: `the page's only status badge: ${quote(badge.text)}`,
    },
  ];
}

export const extractDom: Extractor = (ctx) => {
  const { snapshot, resource } = ctx;
  const claims = formTargets(ctx);
  const texts = snapshot.texts;

  const ordinary = texts.filter((t) => t.role === undefined || !LIVE_ROLES.has(t.role));
  for (const l of labelledValues(ordinary)) {
    if (claims.length >= MAX_CLAIMS_PER_EXTRACTOR) break;
    // Without a resource, a value in a list's row belongs to that row's item, not to the page.
    const row = ordinary[l.index]?.container?.row ?? 0;
    if (!resource && row > 0) continue;
    const reading = readLabelled(l.label, l.value);
    if (reading) claims.push({ ...reading, source: 'dom', strength: 0.8, ref: l.ref, why: `labelled ${quote(`${l.label}: ${l.value}`)}` });
  }

  // The badge beside the page's heading: `Order ORD-1024 [Awaiting payment]`.
  const heading = mainHeading(texts, resource?.id);
  if (heading >= 0) {
    for (const { block } of blocksAfterHeading(texts, heading)) {
      const state = standaloneState(cleanText(block.text));
      if (state) claims.push({ field: FIELD.state, value: state, source: 'dom', strength: 0.9, ref: block.ref, why: `beside the heading ${quote(texts[heading]!.text)}: ${quote(block.text)}` });
    }
  }
  claims.push(...loneBadge(texts));

  tablesOf(snapshot)
    .slice(0, 20)
    .forEach((table, i) => claims.push(...tableClaims(table, i)));
  return claims;
};
