import { z } from 'zod';
import type { ActRefusalValues } from './act-refusal.ts';

/**
 * A sentence Steward's service worker (or steward-bridge) writes for the person, sent to the side
 * panel as a code with its values, so the panel says it in the person's language (issue 30.5:
 * src/sidepanel/lib/phrases.ts, from the catalogue). It travels beside the English the worker
 * wrote (the field it is named after: `detail` and `detail_said`), which stays what agents, logs
 * and the audit read, and is what the panel shows for a code it does not know. Never sent to agents.
 */

/** A value in a phrase: text Steward took as it is (an address, an id, a page's own words) or a number the panel formats. */
const PhraseValue = z.union([z.string().max(2000), z.number()]);

export const Phrase = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  params: z
    .record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), PhraseValue)
    .refine((p) => Object.keys(p).length <= 12, 'at most 12 values')
    .optional(),
});
export type Phrase = z.infer<typeof Phrase>;

type Text = string;
type Count = number;
type None = Record<never, never>;

/** What page content reached an agent, as siteContentIn (site-content.ts) tells it. */
export type SiteContentKind = 'page_error' | 'page_actions' | 'page_state' | 'tool_output' | 'effects' | 'page_changes' | 'resource_state';

/**
 * The codes Steward writes, with the values each takes. The panel has a sentence for every one
 * (a code missing there does not compile); a value the panel words itself is a code too (`status`,
 * `reason`, `problem`).
 */
export interface PhraseValues {
  // A co-pilot step's outcome, error and evidence (src/background/copilot/step-view.ts, run-manager.ts).
  step_denied: None;
  step_stopped: None;
  step_cut_short: { reason: Text };
  step_result: { status: Text; certainty: Text; type: Text; id: Text; state?: Text };
  step_evidence: { action_id: Text; status: Text; certainty: Text; type: Text; id: Text; state?: Text };
  /** The pipeline refused or failed the action: `code` is its ErrorCode. */
  step_refused: { code: Text };
  /** The site reported a failure (`status` failed) or nobody can tell (`unknown`); `code` and `message` are the page's own, when it said. */
  step_site_failed: { action_id: Text; status: Text; code?: Text; message?: Text };
  // Why a co-pilot run stopped (src/agent/loop.ts, run-manager.ts).
  run_denied: { action: Text; type?: Text; id?: Text };
  run_max_steps: { max: Count };
  run_time_budget: { elapsed_ms: Count; budget_ms: Count };
  run_token_budget: { cost: Count; budget: Count; used: Count };
  run_stuck_state: { steps: Count };
  run_stuck_act: { action: Text; times: Count };
  run_stuck_read: { target: Text; times: Count };
  run_failures: { count: Count };
  /** Written by earlier versions (now run_unobserved, run_storage_*, run_internal_error); still said for the runs they stored. */
  run_failed: { message: Text };
  /** Written by earlier versions, as run_failed: the observation's refusal as the worker wrote it. */
  run_failed_observing: { code: Text; message: Text };
  /** Steward could not observe the run's tab: `cause` is the observation's phrase code (an ObserveCause), with its `tab` and `code`. */
  run_unobserved: { cause: ObserveCause; tab: Count; code: Text };
  /** Steward's storage failed the run: full, a record it could not read, or IndexedDB's error `name`; the error's words stay in the English record. */
  run_storage_full: None;
  run_storage_corrupt: None;
  run_storage_failed: { name: Text };
  /** Any other failure of Steward's own: the error's words stay in the English record. */
  run_internal_error: None;
  run_unreadable: None;
  /** The organisation's policy ended the run (src/protocol/policy-rules.ts). */
  run_policy_copilot_off: None;
  run_policy_prompt_api: None;
  run_policy_endpoint: { endpoints: Text };
  run_done_unverified: None;
  // What page content reached an agent (its taint: src/pipeline/taint.ts).
  taint_page: { url: Text };
  taint_copilot_prompt: { origin: Text };
  taint_content: { kind: SiteContentKind; type?: Text; id?: Text };
  taint_bridge_content: { kind: SiteContentKind; type?: Text; id?: Text };
  taint_bridge_page: { origin: Text };
  taint_bridge_tabs: { count: Count };
  taint_bridge_opened: { origin: Text };
  taint_bridge_tools: { origin: Text };
  taint_bridge_screenshot: { origin: Text };
  taint_bridge_memory: None;
  taint_unreadable: None;
  /** Why the audit log's chain does not verify: `problem` is the verifier's code (storage/audit-chain.ts). */
  chain_broken: { problem: Text };
  // Why the audit export's collector was not reached (bridge/src/audit/forwarder.ts, pipeline/audit-export/exporter.ts).
  /** `error`: the system's own words (Node's TLS or socket error), shown as they are. */
  collector_tls_failed: { where: Text; error: Text };
  collector_refused: { where: Text };
  collector_host_unknown: { host: Text };
  /** `code`: the socket's error code (ETIMEDOUT, ECONNRESET, …). */
  collector_unreachable: { where: Text; code: Text };
  collector_closed: { where: Text; code: Text };
  collector_failed: { where: Text; error: Text };
  collector_no_answer: { seconds: Count };
  collector_bridge_down: None;
  // The co-pilot's model: why it is not ready or failed, and its name (src/agent/models/*).
  /** `status`: the HTTP status the server answered. */
  model_bad_key: { host: Text; status: Count };
  model_rate_limited: { host: Text; seconds?: Count };
  /** `said`: the server's own words, shown as they are. */
  model_too_long: { said: Text };
  model_server_error: { host: Text; status: Count; said: Text };
  model_not_found: { host: Text; said: Text };
  model_rejected: { host: Text; status: Count; said: Text };
  model_redirect: { host: Text };
  model_timeout: { host: Text; seconds: Count };
  /** `why`: the browser's own network error, shown as it is. */
  model_unreachable: { host: Text; why: Text };
  /** The answer could not be read: what was wrong with it stays in the English record. */
  model_unreadable: { host: Text };
  model_broke_off: { host: Text; said: Text };
  model_missing: { host: Text; model: Text; offered: Text };
  model_no_endpoint: None;
  model_bad_endpoint: None;
  model_no_model: None;
  model_needs_key: { host: Text };
  prompt_api_missing: None;
  prompt_api_unknown: { error: Text };
  prompt_api_downloadable: None;
  prompt_api_downloading: None;
  prompt_api_unavailable: None;
  prompt_api_nothing_to_ask: None;
  prompt_api_empty: None;
  prompt_api_timeout: { seconds: Count };
  prompt_api_failed: { error: Text };
  /** A model's name where Steward words it: `model` and `host` as they are. */
  model_label_none: None;
  model_label_prompt_api: None;
  model_label_demo: None;
  model_label_at: { model: Text; host: Text };
  // Why a co-pilot run's step counted as a failure (src/agent/loop.ts), for "stopped after repeated failures".
  /** `code`: the pipeline's ErrorCode. */
  failure_refused: { step: Count; code: Text };
  /** A DOM step the page refused before it touched anything: why, as act_refused says it. */
  failure_act_refused: ActRefusalValues & { step: Count };
  /** `status`: failed or unknown, as the pipeline reported it. */
  failure_site: { step: Count; action_id: Text; status: Text };
  /** What was wrong with the reply stays in the English record (it is what the model was told). */
  failure_invalid_reply: { step: Count };
  failure_submit: { step: Count };
  // Why an action needs the person's approval, in words (a reason's detail: src/pipeline/policy/*, runner.ts).
  reason_consent_toggle: { name: Text };
  /** `role`: the dialog's ARIA role (dialog, alertdialog); `dialog`: its name, when it has one. */
  reason_answers_dialog: { name: Text; role: Text; dialog?: Text };
  reason_consent_button: { name: Text };
  reason_uploads_file: None;
  reason_password_field: None;
  reason_payment_field: None;
  reason_submits_form: { form?: Text };
  reason_risky_name: { name: Text };
  reason_moves_money: { name: Text };
  /** `role`: the control's ARIA role, as the page has it. */
  reason_saves_state: { role: Text };
  reason_saves_value: { role: Text };
  reason_non_web_link: { role: Text; name: Text };
  /** `evidence`: the InteractivityEvidence codes Steward inferred it from, comma-separated. */
  reason_inferred: { role: Text; name?: Text; evidence: Text };
  reason_unknown_control: { role: Text; name: Text };
  /** `shape`: the shape's size, colour and kind, as the observation words them. */
  reason_unknown_shape: { shape: Text };
  reason_unknown_focus: { key: Text };
  reason_key_submits: { key: Text; field: Text; form?: Text };
  reason_form_payment: None;
  reason_key_in_field: { key: Text; field: Text };
  reason_page_shortcut: { key: Text };
  reason_page_shortcut_modifier: { key: Text };
  reason_drags_risky: { name: Text };
  reason_drag_unknown: { name: Text; onto?: Text };
  reason_organisation: { pattern: Text };
  reason_off_site_link: { to: Text };
  /** `control`: how the remembered control was named (its role and name); `role` and `name`, when given, are that label's parts (the panel words the role). */
  reason_wrote_before: { origin: Text; control: Text; method: Text; url: Text; role?: Text; name?: Text };
  /** Why a tab could not be observed (src/background/ports/refusal-phrase.ts): `tab` is its id, `code` the refusal's. */
  observe_no_answer: { tab: Count; code?: Text };
  observe_tab_gone: { tab: Count; code?: Text };
  /** The page did not answer within its deadline; the deadline stays in the English record. */
  observe_timeout: { tab: Count; code?: Text };
  /** Chrome could not reach the page (no content script there): Chrome's words stay in the English record. */
  observe_unreachable: { tab: Count; code?: Text };
  /** The page's answer did not fit what Steward reads. */
  observe_bad_answer: { tab: Count; code?: Text };
  /** Any other refusal: its English stays in the record. */
  observe_failed: { tab: Count; code: Text };
  /** A DOM action's element as observed: `role` is its ARIA role (computed or inferred), `name` the page's own. */
  element: { role: Text; name: Text };
  // Why a card offers no "approve for a period" (src/storage/receipt-binding.ts).
  window_one_at_a_time: None;
  /** `reason`: the ApprovalReasonCode that rules a window out. */
  window_excluded: { reason: Text };
  window_in_page: None;
  // Why the MCP bridge's native host is not connected (src/background/mcp/native-link.ts).
  bridge_closed: None;
  bridge_not_installed: None;
  bridge_forbidden: None;
  bridge_exited: None;
  /** `reason`: Chrome's own words, shown as they are. */
  bridge_link_closed: { reason: Text };
  bridge_not_yet: None;
  // Why a side-panel request was refused (the reply's `error.said`: src/protocol/channel.ts, src/background/panel/*).
  /** `part`: what this worker was built without (copilot, tools, retention, bridge, audit_export, contracts). */
  unavailable: { part: Text };
  /** `error`: the system's own words (IndexedDB's, Chrome's), shown as they are. */
  store_unopened: { error: Text };
  token_lifetime: { max_ms: Count };
  token_not_found: { id: Text };
  taint_unchanged: { error: Text };
  forget_incomplete: { origin: Text; error: Text };
  retention_not_applied: { error: Text };
  audit_not_cleared: { error: Text };
  site_access_refused: { error: Text };
  run_starting: None;
  run_already_active: { run_id: Text };
  run_no_web_page: None;
  run_site_not_allowed: { origin: Text };
  run_model_not_ready: None;
  run_not_waiting: { run_id: Text };
  run_not_active: { run_id: Text };
  pairing_code_form: None;
  pairing_grant_failed: { error: Text };
  // Why connecting to a site's agent contract did not work, or why its grant ended (src/contract/refusals.ts, src/background/contract/).
  contract_bad_origin: None;
  contract_site_not_allowed: { origin: Text };
  contract_not_found: { origin: Text };
  /** `site`: the site's name as its contract gives it. */
  contract_revoked: { site: Text };
  contract_expired: { site: Text };
  contract_key_refused: { site: Text };
  contract_sign_in: { site: Text };
  contract_signature_refused: { site: Text };
  contract_stale: { site: Text };
  contract_token_missing: { site: Text };
  contract_access_refused: { site: Text };
  /** `message`: the site's own words. */
  contract_site_refused: { site: Text; message: Text };
  /** `error`: the browser's own network error. */
  contract_unreachable: { site: Text; origin: Text; error: Text };
  /** The site's answer does not fit its contract (`status`: its HTTP status); what was wrong stays in the English record. */
  contract_bad_answer: { site: Text; status: Count };
  /** Steward refused to send the request (it could not be signed, an address off the contract's origin): the site saw nothing. */
  contract_not_sent: { site: Text };
  // A refusal whose English is system text (src/background/core/channels.ts): the person reads one sentence, the English stays one click away.
  /** The panel's request did not fit the worker's schema: the two are from different builds, or the panel is stale. */
  request_malformed: None;
  /** A handler threw: `code` is the refusal's code (INTERNAL), for a report. */
  internal_error: { code: Text };
  /** Why a DOM step was refused before it touched anything (src/protocol/act-refusal.ts: written by the content script, checked there). */
  act_refused: ActRefusalValues;
}
export type PhraseCode = keyof PhraseValues;

/** The phrases that say why a tab could not be observed (one inside run_unobserved). */
export const OBSERVE_CAUSES = ['observe_no_answer', 'observe_tab_gone', 'observe_timeout', 'observe_unreachable', 'observe_bad_answer', 'observe_failed'] as const;
export type ObserveCause = (typeof OBSERVE_CAUSES)[number];

/** A phrase for the panel; values left undefined are left out. */
export function phrase<C extends PhraseCode>(code: C, ...values: [keyof PhraseValues[C]] extends [never] ? [] : [PhraseValues[C]]): Phrase {
  const given = Object.entries((values[0] ?? {}) as Record<string, string | number | undefined>).filter((e): e is [string, string | number] => e[1] !== undefined);
  return given.length > 0 ? { code, params: Object.fromEntries(given.map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, 2000) : v])) } : { code };
}
