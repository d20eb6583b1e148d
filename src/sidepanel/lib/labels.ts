import type { ApprovalReasonCode } from '../../protocol/approval.ts';
import type { Evidence, Source } from '../../protocol/resource.ts';

/** Plain-language names for the protocol's closed vocabularies (pure; shared by every view). */

/** How an action runs or a state was produced (DESIGN §1), in the words a person reads. */
export const PATH_LABEL: Record<Source, string> = {
  site_contract: 'contract',
  webmcp: 'WebMCP',
  adapter: 'adapter',
  legacy_inference: 'legacy',
};

/** The path an action runs on (or ran on), for approval cards and the activity log. */
export const ACTION_PATH_LABEL: Record<Source, string> = {
  site_contract: 'site contract',
  webmcp: 'WebMCP tool',
  adapter: 'adapter',
  legacy_inference: 'page controls',
};

/** One line on what each path's authority means, for a tooltip or note. */
export const PATH_MEANING: Record<Source, string> = {
  site_contract: "the site's own agent contract; the site confirms results",
  webmcp: 'a tool the page registered; Steward checks the state around it',
  adapter: "Steward's mapping for this site, not the site's own word",
  legacy_inference: 'inferred from the page itself; may be wrong',
};

export const EVIDENCE_LABEL: Record<Evidence, string> = {
  site_contract: 'site contract',
  webmcp: 'WebMCP',
  adapter: 'adapter',
  dom: 'page structure',
  accessibility: 'accessibility tree',
  text: 'visible text',
  network: 'network responses',
  structured_data: 'structured data',
  url: 'URL',
  canvas: 'canvas',
  screenshot: 'screenshot',
};

/** Why a person has to decide: written as a sentence about the action, not as a code. */
export const REASON_TEXT: Record<ApprovalReasonCode, string> = {
  not_read_only: 'It changes something on the site.',
  consequential: 'It is marked as consequential.',
  payment: 'It touches money.',
  untrusted_input: 'Page or tool content Steward does not trust has reached this agent, so what it asks for may have been steered by it.',
  form_submission: 'It submits a form.',
  risky_control: 'It presses a control named like buy, pay, delete, send or cancel.',
  unknown_risk: 'Steward could not tell how risky it is, so it treats it as risky.',
  inferred_control: 'The page does not say this is a control; Steward inferred it from how the page behaves and cannot tell what it does.',
  site_requires_approval: "The site's contract requires a person's approval.",
  organisation_policy: 'Your organisation requires your approval for this action every time.',
  confirmation: 'It answers the page’s own “are you sure?” or consent step: that check is yours, never the agent’s.',
};

/** `awaiting_payment` → `awaiting payment` (state and fact names are snake_case). */
export function humanize(code: string): string {
  return code.replace(/_/g, ' ');
}

export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** A word for a confidence score, so 0.55 does not read as "probably fine". */
export function confidenceWord(confidence: number): 'high' | 'medium' | 'low' {
  if (confidence >= 0.8) return 'high';
  if (confidence >= 0.6) return 'medium';
  return 'low';
}

/** The audit log's outcome words where plain snake_case would puzzle a person. */
const OUTCOME_TEXT: Record<string, string> = {
  queued: 'waiting for approval',
  dispatched: 'sent to the page',
  receipt_accepted: 'approved earlier',
  still_unresolved: 'unresolved',
  pending_confirmation: 'not confirmed yet',
};

export function outcomeText(outcome: string): string {
  return OUTCOME_TEXT[outcome] ?? humanize(outcome);
}
