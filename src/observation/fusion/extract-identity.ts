import { LIVE_ROLES } from '../../protocol/snapshot.ts';
import type { Evidence } from '../../protocol/resource.ts';
import type { SnapshotText } from '../../protocol/snapshot.ts';
import { FIELD, quote, type Claim, type Extractor } from '../read/claims.ts';
import { labelType, labelledId, namedIds, typeWord, type NamedId } from '../read/id-shapes.ts';
import { blocksAfterHeading, labelledValues } from '../read/page-text.ts';

/**
 * Who the page names, the way real sites name it: the title ("Checkout · ORD-2003"), headings
 * ("Checkout for ORD-2003", "Order ORD-1024"), the breadcrumb (Home › Orders › ORD-2003) and
 * labelled ids ("Order number: 2003", "Booking reference: K7QX2P", "Invoice #: INV-2024-118").
 *
 * Strengths say how directly each cue names the page's own resource (identify.ts turns them into
 * identified / guessed): the main heading and a labelled id with its type word are direct (≥ 0.8);
 * the title and the breadcrumb are site furniture and only corroborate (0.6); a type read from the
 * id's prefix rather than a word is a little weaker than the id itself.
 */

const TITLE = 0.6;
const BREADCRUMB = 0.6;
const LABEL = 0.8;
const HEADING: Record<number, number> = { 1: 0.9, 2: 0.8 };
const MINOR_HEADING = 0.6;
/** A line right under the main heading ("Account ACC-4471-0092 · IBAN …"): read only when nothing else names an id. */
const CAPTION = 0.7;
const CAPTION_BLOCKS = 3;
/** A type read from the id's prefix (`ORD-`) rather than from a word beside it. */
const BY_SHAPE = 0.9;

/** Several different ids in the same kind of cue: a list of resources, not the page's own. */
const LIST = 2;

interface Cue {
  named: NamedId;
  strength: number;
  source: Evidence;
  why: string;
  ref?: string;
}

function claimsOf(cues: readonly Cue[]): Claim[] {
  return cues.flatMap(({ named, strength, source, why, ref }) => {
    const at = { source, why, ...(ref ? { ref } : {}) };
    return [
      { field: FIELD.resourceType, value: named.type, strength: named.by === 'shape' ? strength * BY_SHAPE : strength, ...at },
      { field: FIELD.resourceId, value: named.id, strength, ...at },
    ];
  });
}

/** Drops the cues of one kind that name several ids of one type (a list page names many orders; it is about none). */
function single(cues: Cue[]): Cue[] {
  const ids = new Map<string, Set<string>>();
  for (const c of cues) ids.set(c.named.type, (ids.get(c.named.type) ?? new Set()).add(c.named.id.toLowerCase()));
  return cues.filter((c) => ids.get(c.named.type)!.size < LIST);
}

function titleCues(title: string | undefined): Cue[] {
  if (!title) return [];
  return single(namedIds(title).map((named) => ({ named, strength: TITLE, source: 'dom' as const, why: `page title ${quote(title)}` })));
}

/** The most important heading level that names an id decides; lesser headings are sections or lists. */
function headingCues(texts: readonly SnapshotText[]): Cue[] {
  const byLevel = new Map<number, Cue[]>();
  for (const block of texts) {
    if (block.role !== 'heading') continue;
    const level = block.level ?? 6;
    const strength = HEADING[level] ?? MINOR_HEADING;
    const why = `heading level ${block.level ?? '?'} ${quote(block.text)}`;
    const cues = namedIds(block.text).map((named) => ({ named, strength, source: 'accessibility' as const, why, ...(block.ref ? { ref: block.ref } : {}) }));
    if (cues.length > 0) byLevel.set(level, [...(byLevel.get(level) ?? []), ...cues]);
  }
  const top = Math.min(...byLevel.keys());
  return Number.isFinite(top) ? single(byLevel.get(top)!) : [];
}

/** Breadcrumb crumbs, split when a site prints them as one text ("Home › Orders › ORD-2003"). */
function crumbs(texts: readonly SnapshotText[]): string[] {
  return texts
    .filter((t) => t.landmark !== undefined && /breadcrumb/i.test(t.landmark))
    .flatMap((t) => t.text.split(/\s*[›»>/|]\s*|\s+\\\s+/))
    .map((c) => c.trim())
    .filter(Boolean);
}

/** The deepest crumb that names an id; the crumb before it ("Orders") types a bare id. */
function breadcrumbCues(texts: readonly SnapshotText[]): Cue[] {
  const trail = crumbs(texts);
  for (let i = trail.length - 1; i >= 0; i--) {
    // "Orders › 2003" types a crumb that is only an id; "Shoes › Trail Runner 3" is a name.
    const context = i > 0 && /^\S+$/.test(trail[i]!) ? typeWord(trail[i - 1]!) : undefined;
    const named = namedIds(trail[i]!, context).at(-1);
    if (named) return [{ named, strength: BREADCRUMB, source: 'accessibility', why: `breadcrumb ${quote(trail.join(' › '))}` }];
  }
  return [];
}

/** Where a label's value is a table cell or a heading, it is a column or a section, not the page's own id. */
const NOT_A_PAIR = new Set(['cell', 'gridcell', 'columnheader', 'heading']);

/** "Booking reference" then "M3RT8Z" in the next block, without a colon: a key–value row of spans. */
function barePairs(texts: readonly SnapshotText[]): Array<{ label: string; type: string; value: string; ref?: string }> {
  const out: Array<{ label: string; type: string; value: string; ref?: string }> = [];
  texts.forEach((block, i) => {
    const next = texts[i + 1];
    if (!next || block.container || next.container || NOT_A_PAIR.has(block.role ?? '') || NOT_A_PAIR.has(next.role ?? '')) return;
    const type = block.text.length > 30 || block.text.includes(':') ? undefined : labelType(block.text, true);
    if (type) out.push({ label: block.text, type, value: next.text, ...(next.ref ? { ref: next.ref } : {}) });
  });
  return out;
}

function labelCues(texts: readonly SnapshotText[]): Cue[] {
  const cues: Cue[] = [];
  const labelled = labelledValues(texts).map((l) => ({ ...l, type: labelType(l.label) }));
  for (const l of [...labelled, ...barePairs(texts)]) {
    const type = l.type;
    const named = type ? labelledId(l.value, type, l.label) : undefined;
    if (!type || !named) continue;
    cues.push({ named: { type, id: named, by: 'word' }, strength: LABEL, source: 'dom', why: `label ${quote(`${l.label}: ${l.value}`)}`, ...(l.ref ? { ref: l.ref } : {}) });
  }
  return single(cues);
}

/** The few short blocks under the first main heading: a subtitle or caption naming the page's resource. */
function captionCues(texts: readonly SnapshotText[]): Cue[] {
  const heading = texts.findIndex((t) => t.role === 'heading' && (t.level ?? 6) <= 2);
  if (heading < 0) return [];
  const cues = blocksAfterHeading(texts, heading, CAPTION_BLOCKS).flatMap(({ block }) =>
    block.text.length > 120 || block.container || NOT_A_PAIR.has(block.role ?? '')
      ? []
      : namedIds(block.text).map((named) => ({ named, strength: CAPTION, source: 'dom' as const, why: `line under the heading ${quote(block.text)}` })),
  );
  return single(cues);
}

export const extractIdentity: Extractor = ({ snapshot }) => {
  // An announcement (a status line, an alert: "Booked APT-1004") reports an event; it does not say what the page is about.
  const ordinary = snapshot.texts.filter((t) => t.landmark === undefined && (t.role === undefined || !LIVE_ROLES.has(t.role)));
  const cues = [...titleCues(snapshot.title), ...headingCues(ordinary), ...breadcrumbCues(snapshot.texts), ...labelCues(ordinary)];
  // Body lines also mention other resources ("from order ORD-2017" on a return): only a last resort.
  return claimsOf(cues.length > 0 ? cues : captionCues(ordinary));
};
