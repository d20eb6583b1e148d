import type { ApprovalReason, ApprovalRequest } from '../protocol/approval.ts';
import type { ElementSummary } from '../protocol/element.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';

/**
 * Each agent's last DOM step, so that a card for a step that answers the page's confirmation
 * (reason `confirmation`, dom-risk.ts) shows the step that made the page ask beside it (issue 27,
 * self-approval): "Click “Delete note”, then this: “Yes, I’m sure”". Kept in memory only: after a
 * restart the card still holds the step for the person, without the earlier one. Pure.
 */
interface LastStep {
  action: string;
  target: string;
  /** `target` as a phrase for the panel, when the step had an element. */
  target_said?: Phrase;
  at: number;
  origin: string;
  /** The controls a person could see before that step: one not among them appeared (or was shown) after it. */
  refs: ReadonlySet<string>;
}

/** A confirmation answered later than this is not tied to the agent's previous step. */
const TIED_MS = 10 * 60_000;
/** Refs remembered per step at most (a huge page: the rest count as seen). */
const MAX_REFS = 20_000;

export class PriorSteps {
  private readonly last = new Map<string, LastStep>();

  note(agentId: string, step: { action: string; target?: ElementSummary; at: number; origin: string; before: readonly ElementSummary[] }): void {
    this.last.set(agentId, {
      action: step.action,
      target: step.target ? describeElement(step.target) : step.action,
      ...(step.target ? { target_said: elementPhrase(step.target) } : {}),
      at: step.at,
      origin: step.origin,
      refs: new Set(
        step.before
          .filter((e) => e.visibility === 'visible' || e.visibility === 'covered' || e.visibility === 'offscreen')
          .slice(0, MAX_REFS)
          .map((e) => e.ref),
      ),
    });
  }

  /**
   * For a card whose reasons say it answers a confirmation: the agent's previous step on the same
   * site (and the reasons, saying the control appeared after it when it did).
   */
  tie(agentId: string, card: { origin: string; now: number; target?: ElementSummary; reasons: ApprovalReason[] }): { prior?: NonNullable<ApprovalRequest['prior_step']>; reasons: ApprovalReason[] } {
    const last = this.last.get(agentId);
    if (!card.reasons.some((r) => r.code === 'confirmation') || !last || last.origin !== card.origin || card.now - last.at > TIED_MS) return { reasons: card.reasons };
    const appeared = card.target !== undefined && !last.refs.has(card.target.ref);
    const prior = {
      action: last.action as NonNullable<ApprovalRequest['prior_step']>['action'],
      target: last.target,
      ...(last.target_said ? { target_said: last.target_said } : {}),
      at: new Date(last.at).toISOString(),
    };
    const reasons = card.reasons.map((r) =>
      r.code === 'confirmation' && appeared
        ? { ...r, detail: `${r.detail ?? ''}; it appeared after this agent’s previous step (${last.target}), so the page is asking about that step`.slice(0, 1000) }
        : r,
    );
    return { prior, reasons };
  }
}

/** An element as a person would name it: `button “Cancel order”`. */
export function describeElement(e: ElementSummary): string {
  return `${e.role} “${shownName(e)}”`;
}

/** `describeElement` as a phrase, so the panel says the role in Steward's words for it (the name stays the page's). */
export function elementPhrase(e: ElementSummary): Phrase {
  return phrase('element', { role: e.role, name: shownName(e) });
}

const shownName = (e: ElementSummary) => (e.name.length > 80 ? `${e.name.slice(0, 79)}…` : e.name) || e.ref;
