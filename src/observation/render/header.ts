import type { AvailableAction } from '../../protocol/action.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { PageSnapshot } from '../../protocol/snapshot.ts';
import { shortConfidence, words } from './format.ts';
import { siteActionsLine, type NeedsApproval } from './marks.ts';
import { quote, word } from './page-words.ts';

/**
 * The rendering's first lines (pure): the state (`order ORD-1024 awaiting_payment (adapter .89);
 * conflicts: …`), the title unless the top of the page says it, and the site's own actions. Only
 * what the page's lines below do not say already: no version (the caller gives it whole, where an
 * agent copies it into preconditions), no evidence list, no conflict that the rendering shows in
 * place (hidden or covered controls, a canvas's pixels).
 */

export type ObservedSummary = Partial<Pick<ObservedState, 'resource' | 'resource_identity' | 'state' | 'source' | 'evidence' | 'confidence' | 'conflicts' | 'state_version' | 'available_actions'>>;

/** Conflicts a canvas line says itself (`canvas e3 (unreadable pixels)`). */
export const SAID_BY_CANVAS: readonly string[] = ['canvas_content_not_observed', 'canvas_pixels_unreadable'];
/** Conflicts the rendering shows where they are: each such control's line says it (or the count of hidden ones). */
const SAID_IN_PLACE = new Set([...SAID_BY_CANVAS, 'hidden_interactive_elements', 'offscreen_interactive_elements', 'covered_interactive_elements', 'zero_size_interactive_elements']);

/** A title's parts: `Order ORD-1024 — Larkspur Home Goods` → the page, then the site. */
const TITLE_PARTS = /\s+[—–|·•-]\s+/;
/** Text blocks at the top of the page a title is compared with. */
const TOP_TEXTS = 12;

/**
 * The page's title, unless the page has a top-level heading or the top of the page says what it says: each word of its first part
 * (the page's own; the rest names the site, which the page's first link usually does) is in the
 * first heading or the first few texts (`Order ORD-1024 — Larkspur Home Goods` over `# Order ORD-1024`).
 */
function shownTitle(s: PageSnapshot): string | undefined {
  const title = s.title.trim();
  // A page with a top-level heading names itself there: the tab's title (its address, the site's name) adds little to every look.
  if (!title || s.texts.some((t) => t.role === 'heading' && t.level === 1)) return undefined;
  const own = words(title.split(TITLE_PARTS)[0] ?? title);
  const top = [...s.texts].sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity)).slice(0, TOP_TEXTS);
  const heading = s.texts.find((t) => t.role === 'heading');
  const seen = new Set([...top, ...(heading ? [heading] : [])].flatMap((t) => words(t.text)));
  return own.length > 0 && own.every((w) => seen.has(w)) ? undefined : title;
}

/**
 * `order ORD-1 awaiting_payment (adapter .89); conflicts: x`: what the page is about, how sure
 * Steward is and what disagrees. A resource that is the page itself is named only when asked
 * (`pageResource`), with no state or confidence to give; nothing is said when nothing is known.
 */
function stateLine(o: ObservedSummary, pageResource: boolean): string | undefined {
  const parts: string[] = [];
  const page = o.resource?.type === 'page';
  if (o.resource && (!page || pageResource)) parts.push(`${word(o.resource.type)} ${word(o.resource.id, 200)}`);
  const doubt = resourceDoubt(o);
  if (doubt) parts.push(doubt);
  if (o.state && !(page && o.state === 'unknown')) parts.push(word(o.state));
  if (!page && (o.source || o.confidence !== undefined)) {
    const how = [o.source && o.source !== 'legacy_inference' ? word(o.source) : '', o.confidence !== undefined ? shortConfidence(o.confidence) : ''].filter(Boolean);
    if (how.length > 0) parts.push(`(${how.join(' ')})`);
  }
  // `unknown` says the state was not observed; the conflict saying so again is left out.
  const conflicts = (o.conflicts ?? []).filter((c) => !SAID_IN_PLACE.has(c) && !(c === 'state_not_observed' && o.state === 'unknown'));
  const text = `${parts.join(' ')}${conflicts.length > 0 ? `${parts.length > 0 ? '; ' : ''}conflicts: ${conflicts.map((c) => word(c)).join(', ')}` : ''}`;
  return text || undefined;
}

/** A resource Steward guessed or could not tell is never shown as known: `(guessed from page title "…")`, `(which order: unknown)`. */
function resourceDoubt(o: ObservedSummary): string | undefined {
  const identity = o.resource_identity;
  // The basis quotes page text already (JSON-quoted by the extractor), so it cannot start a line.
  if (identity?.certainty === 'guessed') return `(guessed${identity.basis ? ` from ${identity.basis}` : ''})`;
  if (identity?.certainty === 'unknown' && identity.likely_type) return `(which ${word(identity.likely_type)}: unknown)`;
  return undefined;
}

interface HeaderInput {
  observed?: ObservedSummary;
  actions?: AvailableAction[];
  tools?: ToolDescriptor[];
  pageResource?: boolean;
}

export function headerLines(s: PageSnapshot, extras: HeaderInput, needs: NeedsApproval): string[] {
  const lines: string[] = [];
  const o = extras.observed;
  // The state line first: it names the resource an action is asked for.
  const state = o ? stateLine(o, extras.pageResource ?? false) : undefined;
  if (state) lines.push(state);
  const title = shownTitle(s);
  if (title) lines.push(quote(title, 120));
  if (!o) return lines;
  const actions = siteActionsLine(o.available_actions ?? [], extras.actions ?? [], extras.tools ?? [], needs);
  if (actions) lines.push(actions);
  return lines;
}
