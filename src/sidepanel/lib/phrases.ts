import { pluralOf, t, type MessageKey } from '../../base/i18n.ts';
import { ErrorCode } from '../../protocol/errors.ts';
import { InteractivityEvidence } from '../../protocol/element.ts';
import { OBSERVE_CAUSES, type Phrase, type PhraseCode, type SiteContentKind } from '../../protocol/phrase.ts';
import { ActRefusalReason } from '../../protocol/act-refusal.ts';
import { countdown } from './time.ts';
import { roleWord } from './role-words.ts';

/**
 * What the service worker writes for the person (src/protocol/phrase.ts), in the person's
 * language: each code's sentence from the catalogue (`said_…`), its values filled in as they are
 * (a page's words, an address) or worded (a status, an error code). A code the panel does not
 * know, or a value missing, falls back to the worker's English. Pure.
 */

type Values = Readonly<Record<string, string | number>>;
type Say = (v: Values) => string | undefined;

const text = (v: Values, name: string): string | undefined => (typeof v[name] === 'string' ? v[name] : typeof v[name] === 'number' ? String(v[name]) : undefined);
const count = (v: Values, name: string): number | undefined => (typeof v[name] === 'number' ? v[name] : undefined);

/** The catalogue's `key` with the named values as its placeholders, in order; undefined when one is missing. */
function fill(key: MessageKey, v: Values, ...names: string[]): string | undefined {
  const values = names.map((n) => v[n]);
  if (values.some((x) => x === undefined)) return undefined;
  return (t as (key: MessageKey, ...substitutions: Array<string | number>) => string)(key, ...(values as Array<string | number>));
}

/** A word from a closed set the worker sends as a code (`confirmed`, `TOOL_NOT_FOUND`); undefined for one the panel does not know. */
function word<W extends string>(known: readonly W[], value: string | undefined, say: (w: W) => string | undefined): string | undefined {
  return value !== undefined && (known as readonly string[]).includes(value) ? say(value as W) : undefined;
}

const STATUSES = ['confirmed', 'accepted', 'failed', 'unknown'] as const;
const CERTAINTIES = ['confirmed', 'inferred', 'pending_confirmation', 'unknown'] as const;
const CONTENT: readonly SiteContentKind[] = ['page_error', 'page_actions', 'page_state', 'tool_output', 'effects', 'page_changes', 'resource_state'];
const CHAIN_PROBLEMS = ['malformed', 'edited', 'deleted', 'inserted', 'reordered', 'broken_link', 'truncated', 'rewritten', 'unsigned', 'unrecorded_removal'] as const;

const status = (v: Values) => word(STATUSES, text(v, 'status'), (s) => t(`said_status_${s}`));
const certainty = (v: Values) => word(CERTAINTIES, text(v, 'certainty'), (c) => t(`said_certainty_${c}`));

/** "confirmed (confirmed); order ORD-1024 is cancelled", with or without a leading action id. */
function result(v: Values, withAction: boolean): string | undefined {
  const s = status(v);
  const c = certainty(v);
  const [type, id, state, action] = [text(v, 'type'), text(v, 'id'), text(v, 'state'), text(v, 'action_id')];
  if (s === undefined || c === undefined || type === undefined || id === undefined || (withAction && action === undefined)) return undefined;
  if (withAction) return state !== undefined ? t('said_step_evidence_state', action!, s, c, type, id, state) : t('said_step_evidence', action!, s, c, type, id);
  return state !== undefined ? t('said_step_result_state', s, c, type, id, state) : t('said_step_result', s, c, type, id);
}

/** What page content reached an agent, as a noun phrase. */
function content(v: Values): string | undefined {
  return word(CONTENT, text(v, 'kind'), (k) => (k === 'resource_state' ? fill('said_content_resource_state', v, 'type', 'id') : t(`said_content_${k}`)));
}

/** The page's own failure, when it said one; else Steward's sentence. */
function siteFailed(v: Values): string | undefined {
  const failed = text(v, 'status') === 'failed';
  if (!failed && text(v, 'status') !== 'unknown') return undefined;
  const says = text(v, 'code') !== undefined && text(v, 'message') !== undefined;
  if (failed) return says ? fill('said_step_site_failed_says', v, 'code', 'message') : t('said_step_site_failed');
  return says ? fill('said_step_site_unknown_says', v, 'code', 'message') : t('said_step_site_unknown');
}

const WINDOW_EXCLUDED = ['payment', 'untrusted_input', 'form_submission', 'risky_control', 'organisation_policy'] as const;

/** "a, b and c" in the person's language; undefined for an empty list. */
function listOf(items: readonly string[]): string | undefined {
  if (items.length <= 1) return items[0];
  return t('said_list_and', items.slice(0, -1).join(', '), items.at(-1)!);
}

/** What Steward inferred a control from (`click_listener,cursor_pointer`), in words; "behaviour" when it does not say. */
function inferredFrom(v: Values): string | undefined {
  const codes = text(v, 'evidence')
    ?.split(',')
    .filter((c) => c !== '');
  if (codes === undefined) return undefined;
  const words = codes.map((c) => word(InteractivityEvidence.options, c, (e) => t(`said_interactivity_${e}`)));
  if (words.some((w) => w === undefined)) return undefined;
  return listOf(words as string[]) ?? t('said_interactivity_behaviour');
}

/** The values with `role` in Steward's own words for it (`button` → the catalogue's word); a role Steward does not name stays as the page has it. */
const withRole = (v: Values): Values => (typeof v.role === 'string' ? { ...v, role: roleWord(v.role) } : v);

/**
 * A control named by its `role` (in the person's words) and `name` (the page's own), or an unnamed
 * one of that role; undefined without a role. `prefix`: `cover_` for what covers a refused step's
 * control; `named`: the act sentences' form, which carries its own article in English ("the button “Save”").
 */
function controlWords(v: Values, prefix: '' | 'cover_' = '', named: 'said_element' | 'said_act_element' = 'said_element'): string | undefined {
  const role = text(v, `${prefix}role`);
  if (role === undefined) return undefined;
  const name = text(v, `${prefix}name`);
  return name !== undefined ? t(named, roleWord(role), name) : t('said_unnamed_element', roleWord(role));
}

/** Why a DOM step was refused (src/protocol/act-refusal.ts), naming its control and, when covered, what covers it. */
function actRefused(reason: ActRefusalReason, v: Values): string | undefined {
  if (reason === 'gone' || reason === 'stale_document' || reason === 'form_field_gone') return t(`said_act_${reason}`);
  const element = controlWords(v, '', 'said_act_element');
  if (element === undefined) return undefined;
  if (reason === 'covered') {
    const cover = controlWords(v, 'cover_', 'said_act_element');
    return cover !== undefined ? t('said_act_covered', element, cover) : t('said_act_covered_unnamed', element);
  }
  if (reason === 'no_option' || reason === 'option_disabled') return fill(`said_act_${reason}`, { ...v, element }, 'element', 'option');
  return t(`said_act_${reason}`, element);
}

const UNAVAILABLE_PARTS = ['copilot', 'tools', 'retention', 'bridge', 'audit_export', 'contracts'] as const;

/** A sentence with an optional value: its `_named` form when the value is there. */
const withOptional = (v: Values, optional: string, plain: () => string | undefined, named: () => string | undefined) => (v[optional] !== undefined ? named() : plain());

const SAY: Record<PhraseCode, Say> = {
  step_denied: () => t('said_step_denied'),
  step_stopped: () => t('said_step_stopped'),
  // The run's end says why: the step only says it did not finish.
  step_cut_short: () => t('said_step_cut_short'),
  step_result: (v) => result(v, false),
  step_evidence: (v) => result(v, true),
  step_refused: (v) => word(ErrorCode.options, text(v, 'code'), (code) => t('said_step_refused', t(`said_error_${code}`), code)),
  step_site_failed: siteFailed,
  run_denied: (v) => (text(v, 'type') !== undefined && text(v, 'id') !== undefined ? fill('said_run_denied_on', v, 'action', 'type', 'id') : fill('said_run_denied', v, 'action')),
  run_max_steps: (v) => fill('said_run_max_steps', v, 'max'),
  run_time_budget: (v) => {
    const [elapsed, budget] = [count(v, 'elapsed_ms'), count(v, 'budget_ms')];
    return elapsed === undefined || budget === undefined ? undefined : t('said_run_time_budget', countdown(elapsed), countdown(budget));
  },
  run_token_budget: (v) => fill('said_run_token_budget', v, 'cost', 'budget', 'used'),
  run_stuck_state: (v) => fill('said_run_stuck_state', v, 'steps'),
  run_stuck_act: (v) => fill('said_run_stuck_act', v, 'action', 'times'),
  run_stuck_read: (v) => fill('said_run_stuck_read', v, 'target', 'times'),
  run_failures: (v) => fill('said_run_failures', v, 'count'),
  run_failed: (v) => fill('said_run_failed', v, 'message'),
  run_failed_observing: (v) => fill('said_run_failed_observing', v, 'code', 'message'),
  run_unobserved: (v) =>
    word(OBSERVE_CAUSES, text(v, 'cause'), (cause) => {
      const why = SAY[cause](v);
      return why === undefined ? undefined : t('said_run_unobserved', why);
    }),
  run_storage_full: () => t('said_run_storage_full'),
  run_storage_corrupt: () => t('said_run_storage_corrupt'),
  run_storage_failed: (v) => fill('said_run_storage_failed', v, 'name'),
  run_internal_error: () => t('said_run_internal_error'),
  run_unreadable: () => t('said_run_unreadable'),
  run_policy_copilot_off: () => t('said_run_policy_copilot_off'),
  run_policy_prompt_api: () => t('said_run_policy_prompt_api'),
  run_policy_endpoint: (v) => fill('said_run_policy_endpoint', v, 'endpoints'),
  run_done_unverified: () => t('said_run_done_unverified'),
  taint_page: (v) => fill('said_taint_page', v, 'url'),
  taint_copilot_prompt: (v) => fill('said_taint_copilot_prompt', v, 'origin'),
  taint_content: content,
  taint_bridge_content: (v) => {
    const what = content(v);
    return what === undefined ? undefined : t('said_taint_bridge_content', what);
  },
  taint_bridge_page: (v) => fill('said_taint_bridge_page', v, 'origin'),
  taint_bridge_tabs: (v) => {
    const n = count(v, 'count');
    return n === undefined ? undefined : pluralOf(n) === 'one' ? t('said_taint_bridge_tabs_one', n) : t('said_taint_bridge_tabs_other', n);
  },
  taint_bridge_opened: (v) => fill('said_taint_bridge_opened', v, 'origin'),
  taint_bridge_tools: (v) => fill('said_taint_bridge_tools', v, 'origin'),
  taint_bridge_screenshot: (v) => fill('said_taint_bridge_screenshot', v, 'origin'),
  taint_bridge_memory: () => t('said_taint_bridge_memory'),
  taint_unreadable: () => t('said_taint_unreadable'),
  chain_broken: (v) => word(CHAIN_PROBLEMS, text(v, 'problem'), (p) => t(`said_chain_${p}`)),
  collector_tls_failed: (v) => fill('said_collector_tls_failed', v, 'where', 'error'),
  collector_refused: (v) => fill('said_collector_refused', v, 'where'),
  collector_host_unknown: (v) => fill('said_collector_host_unknown', v, 'host'),
  collector_unreachable: (v) => fill('said_collector_unreachable', v, 'where', 'code'),
  collector_closed: (v) => fill('said_collector_closed', v, 'where', 'code'),
  collector_failed: (v) => fill('said_collector_failed', v, 'where', 'error'),
  collector_no_answer: (v) => fill('said_collector_no_answer', v, 'seconds'),
  collector_bridge_down: () => t('said_collector_bridge_down'),
  model_bad_key: (v) => fill('said_model_bad_key', v, 'host', 'status'),
  model_rate_limited: (v) => (count(v, 'seconds') !== undefined ? fill('said_model_rate_limited_wait', v, 'host', 'seconds') : fill('said_model_rate_limited', v, 'host')),
  model_too_long: (v) => fill('said_model_too_long', v, 'said'),
  model_server_error: (v) => fill('said_model_server_error', v, 'host', 'status', 'said'),
  model_not_found: (v) => fill('said_model_not_found', v, 'host', 'said'),
  model_rejected: (v) => fill('said_model_rejected', v, 'host', 'status', 'said'),
  model_redirect: (v) => fill('said_model_redirect', v, 'host'),
  model_timeout: (v) => fill('said_model_timeout', v, 'host', 'seconds'),
  model_unreachable: (v) => fill('said_model_unreachable', v, 'host', 'why'),
  model_unreadable: (v) => fill('said_model_unreadable', v, 'host'),
  model_broke_off: (v) => fill('said_model_broke_off', v, 'host', 'said'),
  model_missing: (v) => fill('said_model_missing', v, 'host', 'model', 'offered'),
  model_no_endpoint: () => t('said_model_no_endpoint'),
  model_bad_endpoint: () => t('said_model_bad_endpoint'),
  model_no_model: () => t('said_model_no_model'),
  model_needs_key: (v) => fill('said_model_needs_key', v, 'host'),
  prompt_api_missing: () => t('said_prompt_api_missing'),
  prompt_api_unknown: (v) => fill('said_prompt_api_unknown', v, 'error'),
  prompt_api_downloadable: () => t('said_prompt_api_downloadable'),
  prompt_api_downloading: () => t('said_prompt_api_downloading'),
  prompt_api_unavailable: () => t('said_prompt_api_unavailable'),
  prompt_api_nothing_to_ask: () => t('said_prompt_api_nothing_to_ask'),
  prompt_api_empty: () => t('said_prompt_api_empty'),
  prompt_api_timeout: (v) => fill('said_prompt_api_timeout', v, 'seconds'),
  prompt_api_failed: (v) => fill('said_prompt_api_failed', v, 'error'),
  model_label_none: () => t('said_model_label_none'),
  model_label_prompt_api: () => t('said_model_label_prompt_api'),
  model_label_demo: () => t('said_model_label_demo'),
  model_label_at: (v) => fill('said_model_label_at', v, 'model', 'host'),
  failure_refused: (v) => word(ErrorCode.options, text(v, 'code'), (code) => fill('said_failure_refused', { ...v, why: t(`said_error_${code}`) }, 'step', 'why', 'code')),
  failure_act_refused: (v) =>
    word(ActRefusalReason.options, text(v, 'reason'), (reason) => {
      const why = actRefused(reason, v);
      return why === undefined ? undefined : fill('said_failure_act_refused', { ...v, why }, 'step', 'why');
    }),
  failure_site: (v) => {
    const s = text(v, 'status');
    const key = s === 'failed' ? 'said_failure_site_failed' : s === 'unknown' ? 'said_failure_site_unknown' : undefined;
    return key && fill(key, v, 'step', 'action_id');
  },
  failure_invalid_reply: (v) => fill('said_failure_invalid_reply', v, 'step'),
  failure_submit: (v) => fill('said_failure_submit', v, 'step'),
  element: (v) => fill('said_element', withRole(v), 'role', 'name'),
  observe_no_answer: (v) => fill('said_observe_no_answer', v, 'tab'),
  observe_tab_gone: (v) => fill('said_observe_tab_gone', v, 'tab'),
  observe_timeout: (v) => fill('said_observe_timeout', v, 'tab'),
  observe_unreachable: (v) => fill('said_observe_unreachable', v, 'tab'),
  observe_bad_answer: (v) => fill('said_observe_bad_answer', v, 'tab'),
  observe_failed: (v) => fill('said_observe_failed', v, 'tab', 'code'),
  reason_consent_toggle: (v) => fill('said_reason_consent_toggle', v, 'name'),
  reason_answers_dialog: (v) =>
    withOptional(
      v,
      'dialog',
      () => fill('said_reason_answers_dialog', withRole(v), 'name', 'role'),
      () => fill('said_reason_answers_dialog_named', withRole(v), 'name', 'role', 'dialog'),
    ),
  reason_consent_button: (v) => fill('said_reason_consent_button', v, 'name'),
  reason_uploads_file: () => t('said_reason_uploads_file'),
  reason_password_field: () => t('said_reason_password_field'),
  reason_payment_field: () => t('said_reason_payment_field'),
  reason_submits_form: (v) =>
    withOptional(
      v,
      'form',
      () => t('said_reason_submits_form'),
      () => fill('said_reason_submits_form_named', v, 'form'),
    ),
  reason_risky_name: (v) => fill('said_reason_risky_name', v, 'name'),
  reason_moves_money: (v) => fill('said_reason_moves_money', v, 'name'),
  reason_saves_state: (v) => fill('said_reason_saves_state', withRole(v), 'role'),
  reason_saves_value: (v) => fill('said_reason_saves_value', withRole(v), 'role'),
  reason_non_web_link: (v) => fill('said_reason_non_web_link', withRole(v), 'role', 'name'),
  reason_inferred: (v) => {
    const from = inferredFrom(v);
    if (from === undefined) return undefined;
    const values = { ...withRole(v), from };
    return withOptional(
      v,
      'name',
      () => fill('said_reason_inferred', values, 'role', 'from'),
      () => fill('said_reason_inferred_named', values, 'role', 'name', 'from'),
    );
  },
  reason_unknown_control: (v) => fill('said_reason_unknown_control', withRole(v), 'role', 'name'),
  reason_unknown_shape: (v) => fill('said_reason_unknown_shape', v, 'shape'),
  reason_unknown_focus: (v) => fill('said_reason_unknown_focus', v, 'key'),
  reason_key_submits: (v) =>
    withOptional(
      v,
      'form',
      () => fill('said_reason_key_submits', v, 'key', 'field'),
      () => fill('said_reason_key_submits_named', v, 'key', 'field', 'form'),
    ),
  reason_form_payment: () => t('said_reason_form_payment'),
  reason_key_in_field: (v) => fill('said_reason_key_in_field', v, 'key', 'field'),
  reason_page_shortcut: (v) => fill('said_reason_page_shortcut', v, 'key'),
  reason_page_shortcut_modifier: (v) => fill('said_reason_page_shortcut_modifier', v, 'key'),
  reason_drags_risky: (v) => fill('said_reason_drags_risky', v, 'name'),
  reason_drag_unknown: (v) =>
    withOptional(
      v,
      'onto',
      () => fill('said_reason_drag_unknown', v, 'name'),
      () => fill('said_reason_drag_unknown_onto', v, 'name', 'onto'),
    ),
  reason_organisation: (v) => fill('said_reason_organisation', v, 'pattern'),
  reason_off_site_link: (v) => fill('said_reason_off_site_link', v, 'to'),
  reason_wrote_before: (v) => fill('said_reason_wrote_before', { ...v, control: controlWords(v) ?? v.control! }, 'origin', 'control', 'method', 'url'),
  window_one_at_a_time: () => t('said_window_one_at_a_time'),
  window_excluded: (v) => word(WINDOW_EXCLUDED, text(v, 'reason'), (r) => t('said_window_excluded', t(`said_window_why_${r}`))),
  window_in_page: () => t('said_window_in_page'),
  bridge_closed: () => t('said_bridge_closed'),
  bridge_not_installed: () => t('said_bridge_not_installed'),
  bridge_forbidden: () => t('said_bridge_forbidden'),
  bridge_exited: () => t('said_bridge_exited'),
  bridge_link_closed: (v) => fill('said_bridge_link_closed', v, 'reason'),
  bridge_not_yet: () => t('said_bridge_not_yet'),
  unavailable: (v) => word(UNAVAILABLE_PARTS, text(v, 'part'), (part) => t(`said_unavailable_${part}`)),
  store_unopened: (v) => fill('said_store_unopened', v, 'error'),
  token_lifetime: (v) => fill('said_token_lifetime', v, 'max_ms'),
  token_not_found: (v) => fill('said_token_not_found', v, 'id'),
  taint_unchanged: (v) => fill('said_taint_unchanged', v, 'error'),
  forget_incomplete: (v) => fill('said_forget_incomplete', v, 'origin', 'error'),
  retention_not_applied: (v) => fill('said_retention_not_applied', v, 'error'),
  audit_not_cleared: (v) => fill('said_audit_not_cleared', v, 'error'),
  site_access_refused: (v) => fill('said_site_access_refused', v, 'error'),
  run_starting: () => t('said_run_starting'),
  run_already_active: (v) => fill('said_run_already_active', v, 'run_id'),
  run_no_web_page: () => t('said_run_no_web_page'),
  run_site_not_allowed: (v) => fill('said_run_site_not_allowed', v, 'origin'),
  run_model_not_ready: () => t('said_run_model_not_ready'),
  run_not_waiting: (v) => fill('said_run_not_waiting', v, 'run_id'),
  run_not_active: (v) => fill('said_run_not_active', v, 'run_id'),
  pairing_code_form: () => t('said_pairing_code_form'),
  pairing_grant_failed: (v) => fill('said_pairing_grant_failed', v, 'error'),
  contract_bad_origin: () => t('said_contract_bad_origin'),
  contract_site_not_allowed: (v) => fill('said_contract_site_not_allowed', v, 'origin'),
  contract_not_found: (v) => fill('said_contract_not_found', v, 'origin'),
  contract_revoked: (v) => fill('said_contract_revoked', v, 'site'),
  contract_expired: (v) => fill('said_contract_expired', v, 'site'),
  contract_key_refused: (v) => fill('said_contract_key_refused', v, 'site'),
  contract_sign_in: (v) => fill('said_contract_sign_in', v, 'site'),
  contract_signature_refused: (v) => fill('said_contract_signature_refused', v, 'site'),
  contract_stale: (v) => fill('said_contract_stale', v, 'site'),
  contract_token_missing: (v) => fill('said_contract_token_missing', v, 'site'),
  contract_access_refused: (v) => fill('said_contract_access_refused', v, 'site'),
  contract_site_refused: (v) => fill('said_contract_site_refused', v, 'site', 'message'),
  contract_unreachable: (v) => fill('said_contract_unreachable', v, 'site', 'origin', 'error'),
  contract_bad_answer: (v) => fill('said_contract_bad_answer', v, 'site', 'status'),
  contract_not_sent: (v) => fill('said_contract_not_sent', v, 'site'),
  request_malformed: () => t('said_request_malformed'),
  internal_error: (v) => fill('said_internal_error', v, 'code'),
  act_refused: (v) => word(ActRefusalReason.options, text(v, 'reason'), (reason) => actRefused(reason, v)),
};

/**
 * Codes whose sentence leaves out part of what the worker wrote (a refusal's own message, a
 * verifier's specifics): the worker's English stays one click away. The others say all of it.
 */
const PARTIAL: ReadonlySet<PhraseCode> = new Set<PhraseCode>([
  'step_refused',
  'step_cut_short',
  'chain_broken',
  'collector_bridge_down',
  'model_unreadable',
  'failure_refused',
  'failure_act_refused',
  'failure_invalid_reply',
  'failure_submit',
  'request_malformed',
  'internal_error',
  // The element's tag and id, and where Steward tried to press it, stay in the English record.
  'act_refused',
  'contract_bad_answer',
  'contract_not_sent',
  'observe_timeout',
  'observe_unreachable',
  'observe_bad_answer',
  'observe_failed',
  'run_unobserved',
  'run_storage_full',
  'run_storage_corrupt',
  'run_storage_failed',
  'run_internal_error',
]);

/** The phrase in the person's words, and the worker's English record when that says more; the English alone when the panel cannot say it. */
export function saidWithRecord(phrase: Phrase | undefined, english: string): { words: string; record?: string } {
  const words = saidOrUndefined(phrase);
  if (words === undefined) return { words: english };
  return PARTIAL.has(phrase!.code as PhraseCode) && words !== english ? { words, record: english } : { words };
}

/** The phrase in the person's language, or undefined when the panel cannot say it (an unknown code, a value missing). */
function saidOrUndefined(phrase: Phrase | undefined): string | undefined {
  if (!phrase || !Object.hasOwn(SAY, phrase.code)) return undefined;
  return SAY[phrase.code as PhraseCode](phrase.params ?? {});
}

/** The phrase in the person's language; the worker's English when the panel cannot say it. */
export function said(phrase: Phrase | undefined, english: string): string {
  return saidOrUndefined(phrase) ?? english;
}
