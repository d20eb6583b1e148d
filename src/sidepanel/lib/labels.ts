import type { ApprovalReasonCode } from '../../protocol/approval.ts';
import type { Evidence, Source } from '../../protocol/resource.ts';
import { t, uiLocale, type MessageKey } from '../../base/i18n.ts';

/** Plain-language names for the protocol's closed vocabularies (pure; shared by every view). */

/** How an action runs or a state was produced (DESIGN §1), in the words a person reads. */
export const pathLabel = (source: Source): string => t(`path_label_${source}`);

/** The path an action runs on (or ran on), for approval cards and the activity log. */
export const actionPathLabel = (source: Source): string => t(`action_path_${source}`);

/** One line on what each path's authority means, for a tooltip or note. */
export const pathMeaning = (source: Source): string => t(`path_meaning_${source}`);

const EVIDENCE_KINDS: ReadonlySet<string> = new Set<Evidence>([
  'site_contract',
  'webmcp',
  'adapter',
  'dom',
  'accessibility',
  'text',
  'network',
  'structured_data',
  'url',
  'canvas',
  'screenshot',
] satisfies Evidence[]);

export const isEvidence = (word: string): word is Evidence => EVIDENCE_KINDS.has(word);

/** The evidence kinds (`dom`, `network`, …), for reading codes that name them. */
export const evidenceKinds = (): string[] => [...EVIDENCE_KINDS];

export const evidenceLabel = (evidence: Evidence): string => t(`evidence_${evidence}`);

/** Why a person has to decide: written as a sentence about the action, not as a code. */
export const reasonText = (code: ApprovalReasonCode): string => t(`reason_${code}`);

/** `awaiting_payment` → `awaiting payment` (state and fact names are snake_case). */
export function humanize(code: string): string {
  return code.replace(/_/g, ' ');
}

export function percent(confidence: number): string {
  return new Intl.NumberFormat(uiLocale(), { style: 'percent' }).format(Math.round(confidence * 100) / 100);
}

/** A word for a confidence score, so 0.55 does not read as "probably fine". */
export function confidenceWord(confidence: number): 'high' | 'medium' | 'low' {
  if (confidence >= 0.8) return 'high';
  if (confidence >= 0.6) return 'medium';
  return 'low';
}

/** The audit log's outcome words where plain snake_case would puzzle a person. */
const OUTCOME_KEYS = {
  queued: 'outcome_queued',
  dispatched: 'outcome_dispatched',
  receipt_accepted: 'outcome_receipt_accepted',
  still_unresolved: 'outcome_still_unresolved',
  pending_confirmation: 'outcome_pending_confirmation',
  // A step's own outcome where the person's Stop ended the action (runner.ts).
  stopped: 'outcome_stopped',
  // A token's own entries (src/pipeline/create.ts).
  minted: 'outcome_minted',
  revoked: 'outcome_revoked',
  purged: 'outcome_purged',
  // An action's end (audit-groups.ts, actionResult).
  done_confirmed: 'result_done_confirmed',
  done: 'result_done',
  waiting_for_you: 'result_waiting_for_you',
  sent_unconfirmed: 'result_sent_unconfirmed',
  denied_by_you: 'result_denied_by_you',
  stopped_by_you: 'result_stopped_by_you',
  withdrawn: 'result_withdrawn',
  refused: 'result_refused',
  failed: 'result_failed',
  outcome_unknown: 'result_outcome_unknown',
  in_progress: 'result_in_progress',
} as const satisfies Record<string, MessageKey>;

export function outcomeText(outcome: string): string {
  return outcome in OUTCOME_KEYS ? t(OUTCOME_KEYS[outcome as keyof typeof OUTCOME_KEYS]) : humanize(outcome);
}
