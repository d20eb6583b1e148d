import type { ApprovalReason } from '../../protocol/approval.ts';
import type { ElementSummary } from '../../protocol/element.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { isShownLink, normalUrl } from '../../base/shown-link.ts';

/**
 * Quiet sinks (issue 27, defect 10): primitives Steward judges harmless that can still carry what
 * an agent read somewhere else, or write, without any submit. Once page content has reached an
 * agent (taint.ts), and in practice that is after its first look, three of them are held for the
 * person:
 *
 * - a navigation to an address the page does not show as a link (or one that adds to a shown
 *   link: another query, fragment or path): an agent can put a page fact into a URL it composes,
 *   and the GET alone delivers it (a one-click cancel link, an open redirect);
 * - typing text taken from the page: a copied fact is data leaving the place it was shown;
 * - typing into a field the page reacts to on every keystroke (autosave, a live preview that
 *   loads what it renders): there is no submit for the person to see.
 *
 * Following a link the page shows and typing the person's own words stay free: that is what
 * agents do on benign tasks. Pure.
 */

/**
 * Words of a text: runs of letters and digits, joined by the characters ids and addresses hold
 * (`ORD-7001`, `alice@example.com`, `4492.77`), lower-cased, without the joiners at their ends.
 */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}@._+-]+/u)) {
    const w = raw.replace(/^[@._+-]+|[@._+-]+$/g, '');
    if (w) out.push(w);
  }
  return out;
}

/**
 * The rule for "this text came from the page": the typed text carries a *distinctive* word the
 * page shows and the person did not say. Distinctive means it carries information on its own, so
 * matching it is not chance: a number or id with at least 4 characters and a digit (`7001`,
 * `ORD-7001`, `K7QX2P`), an address with `@`, or a word of at least 12 letters — any one of these
 * is enough. Plain words of 6 to 11 letters (`marigold`, `overdue`, `parcel`) count only two or
 * more together: one alone is the site's vocabulary as often as a fact ("Where is my parcel?" on
 * "Parcel & Co" was a false hold). Shorter words (`the`, `shoes`, `red`) match any page and prove
 * nothing. Whole words, not substrings, so "running" typed does not match "runner" shown.
 * The person's words (the co-pilot's goal, known to Steward, never the agent's claim) are
 * subtracted: a search for what the person asked for is theirs even when the page shows it too.
 */
function distinctive(word: string): boolean {
  if (word.includes('@')) return word.length >= 5;
  if (/\p{N}/u.test(word)) return word.length >= 4;
  return word.length >= 6;
}

/** A word that proves copying by itself (an id, a number, an address, a very long word); other distinctive words need company. */
function decisive(word: string): boolean {
  return word.includes('@') || /\p{N}/u.test(word) || word.length >= 12;
}

/** The page text an observation carries, as the agent was given it (title, address, names, values, facts, form labels, tool descriptions). */
export function pageTextOf(observed: ObservedState, skipRef?: string): string[] {
  const parts: string[] = [observed.title ?? '', safeDecode(observed.url)];
  for (const e of observed.elements ?? []) {
    // The field being typed into holds the agent's own earlier text (a retry): not the page's.
    if (e.ref === skipRef) continue;
    parts.push(e.name, e.value ?? '', e.description ?? '', e.href ? safeDecode(e.href) : '');
  }
  for (const f of observed.facts ?? []) parts.push(typeof f.value === 'string' || typeof f.value === 'number' ? String(f.value) : '');
  for (const form of observed.forms ?? []) {
    if (form.name) parts.push(form.name);
    for (const field of form.fields) if (field.ref !== skipRef) parts.push(field.name, field.label ?? '', field.value ?? '', ...(field.options ?? []));
  }
  for (const t of observed.tools ?? []) parts.push(t.name, t.description ?? '');
  return parts.filter(Boolean);
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** The distinctive words of `typed` that the page shows and the person did not say (empty: the text is not the page's). */
export function pageDerivedWords(typed: string, pageText: readonly string[], personWords?: string): string[] {
  const candidates = wordsOf(typed).filter(distinctive);
  if (candidates.length === 0) return [];
  const page = new Set<string>();
  for (const part of pageText) for (const w of wordsOf(part)) if (distinctive(w)) page.add(w);
  const person = new Set(personWords ? wordsOf(personWords) : []);
  const copied = [...new Set(candidates.filter((w) => page.has(w) && !person.has(w)))];
  return copied.length >= 2 || copied.some(decisive) ? copied : [];
}

/** Roles whose keystrokes a page is expected to answer with suggestions (a read): their writes are caught by what they send. */
const SUGGESTING_ROLES = new Set(['searchbox', 'combobox', 'spinbutton']);

/** Whether the page runs its own code on every edit of this field (its listeners, or its form's): see ElementState `reactive`. */
export function reactsToTyping(target: ElementSummary | undefined): boolean {
  return target !== undefined && target.states.includes('reactive') && !SUGGESTING_ROLES.has(target.role);
}

export interface SinkContext {
  action: string;
  input: Record<string, unknown>;
  observed: ObservedState;
  /** The DOM action's target, as classified (dom-risk.ts). */
  target?: ElementSummary;
  /** Page content has reached this agent (taint.ts). */
  tainted: boolean;
  /** The person's own words for this task, when Steward knows them (the co-pilot's goal). */
  person_words?: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Why a tainted agent's quiet primitive needs the person (empty: it does not). The card shows the full URL or text. */
export function quietSinkReasons(c: SinkContext): ApprovalReason[] {
  if (!c.tainted) return [];
  const reasons: ApprovalReason[] = [];
  if (c.action === 'nav.goto' && typeof c.input.url === 'string') {
    const url = c.input.url;
    const theirs = c.person_words !== undefined && normalUrl(url) !== undefined && c.person_words.includes(url);
    if (!theirs && !isShownLink(url, c.observed)) {
      reasons.push({
        code: 'not_read_only',
        detail: clip(`goes to ${url} — an address this page does not show as a link (or a shown link with data added), so it may carry what the agent read to that site`, 4000),
      });
    }
  }
  if (c.action === 'dom.type' && typeof c.input.text === 'string') {
    const text = c.input.text;
    const copied = pageDerivedWords(text, pageTextOf(c.observed, c.target?.ref), c.person_words);
    if (copied.length > 0) {
      reasons.push({
        code: 'untrusted_input',
        detail: clip(`types text taken from the page (${copied.slice(0, 5).join(', ')}): “${clip(text, 2000)}”`, 4000),
      });
    }
    // The person's own words, asked for in their goal ("type Li into City"), are theirs to send, even where the page reacts to each edit.
    const asked = c.person_words !== undefined && text.trim() !== '' && c.person_words.toLowerCase().includes(text.trim().toLowerCase());
    if (reactsToTyping(c.target) && !asked) {
      reasons.push({
        code: 'not_read_only',
        detail: clip(`the page runs its own code on every edit of “${clip(c.target!.name || c.target!.role, 80)}” (it may save or show the text without a submit): “${clip(text, 2000)}”`, 4000),
      });
    }
  }
  return reasons;
}
