import type { ApprovalReason } from '../../protocol/approval.ts';
import type { ElementSummary } from '../../protocol/element.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { isShownLink, normalUrl } from '../../base/shown-link.ts';
import { pageDerivedWords, pageTextOf } from './copied-text.ts';

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

/** Roles whose keystrokes a page is expected to answer with suggestions (a read): their writes are caught by what they send. */
const SUGGESTING_ROLES = new Set(['searchbox', 'combobox', 'spinbutton']);

/** Whether the page runs its own code on every edit of this field (its listeners, or its form's): see ElementState `reactive`. */
function reactsToTyping(target: ElementSummary | undefined): boolean {
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
