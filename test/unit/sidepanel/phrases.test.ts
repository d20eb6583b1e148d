import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import type { Phrase, PhraseCode, PhraseValues } from '../../../src/protocol/phrase.ts';
import { said, saidWithRecord } from '../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;

/** One phrase of every code the worker writes, with its values (a code missing here does not compile). */
const SAMPLES: { [C in PhraseCode]: PhraseValues[C] } = {
  step_denied: {},
  step_stopped: {},
  step_cut_short: { reason: 'time_budget' },
  step_result: { status: 'confirmed', certainty: 'confirmed', type: 'order', id: 'ORD-1024', state: 'cancelled' },
  step_evidence: { action_id: 'act_1', status: 'accepted', certainty: 'pending_confirmation', type: 'order', id: 'ORD-1024' },
  step_refused: { code: 'TOOL_NOT_FOUND' },
  step_site_failed: { action_id: 'act_2', status: 'failed', code: 'SLOT_TAKEN', message: 'that slot was just taken' },
  run_denied: { action: 'orders.cancel', type: 'order', id: 'ORD-1024' },
  run_max_steps: { max: 25 },
  run_time_budget: { elapsed_ms: 601_000, budget_ms: 600_000 },
  run_token_budget: { cost: 900, budget: 200_000, used: 199_500 },
  run_stuck_state: { steps: 3 },
  run_stuck_act: { action: 'list_doctors', times: 3 },
  run_stuck_read: { target: 'ref e5', times: 3 },
  run_failures: { count: 3 },
  run_failed: { message: 'boom' },
  run_unreadable: {},
  run_policy_copilot_off: {},
  run_policy_prompt_api: {},
  run_policy_endpoint: { endpoints: 'https://llm.example.org/v1' },
  run_done_unverified: {},
  taint_page: { url: 'http://shop.localhost/orders/ORD-1024' },
  taint_copilot_prompt: { origin: 'http://shop.localhost' },
  taint_content: { kind: 'tool_output' },
  taint_bridge_content: { kind: 'resource_state', type: 'order', id: 'ORD-1024' },
  taint_bridge_page: { origin: 'http://shop.localhost' },
  taint_bridge_tabs: { count: 2 },
  taint_bridge_opened: { origin: 'http://shop.localhost' },
  taint_bridge_tools: { origin: 'http://clinic.localhost' },
  taint_bridge_screenshot: { origin: 'http://shop.localhost' },
  taint_bridge_memory: {},
  taint_unreadable: {},
  chain_broken: { problem: 'edited' },
  collector_tls_failed: { where: 'tls://127.0.0.1:6514', error: 'socket hang up' },
  collector_refused: { where: 'tcp://127.0.0.1:514' },
  collector_host_unknown: { host: 'logs.example.org' },
  collector_unreachable: { where: 'tcp://10.0.0.9:514', code: 'ETIMEDOUT' },
  collector_closed: { where: 'tcp://10.0.0.9:514', code: 'ECONNRESET' },
  collector_failed: { where: 'tcp://10.0.0.9:514', error: 'write EPIPE' },
  collector_no_answer: { seconds: 60 },
  collector_bridge_down: {},
  model_bad_key: { host: 'api.openai.com', status: 401 },
  model_rate_limited: { host: 'api.openai.com', seconds: 30 },
  model_too_long: { said: 'maximum context length is 8192 tokens' },
  model_server_error: { host: 'llm.example.org', status: 503, said: 'overloaded' },
  model_not_found: { host: 'llm.example.org', said: 'not found' },
  model_rejected: { host: 'llm.example.org', status: 400, said: 'bad request' },
  model_redirect: { host: 'llm.example.org' },
  model_timeout: { host: 'llm.example.org', seconds: 60 },
  model_unreachable: { host: '127.0.0.1:9', why: 'ECONNREFUSED' },
  model_unreadable: { host: 'llm.example.org' },
  model_broke_off: { host: 'llm.example.org', said: 'overloaded_error' },
  model_missing: { host: '127.0.0.1:11434', model: 'llama3', offered: 'qwen2.5, mistral' },
  model_no_endpoint: {},
  model_bad_endpoint: {},
  model_no_model: {},
  model_needs_key: { host: 'api.openai.com' },
  prompt_api_missing: {},
  prompt_api_unknown: { error: 'NotAllowedError' },
  prompt_api_downloadable: {},
  prompt_api_downloading: {},
  prompt_api_unavailable: {},
  prompt_api_nothing_to_ask: {},
  prompt_api_empty: {},
  prompt_api_timeout: { seconds: 60 },
  prompt_api_failed: { error: 'UnknownError' },
  model_label_none: {},
  model_label_prompt_api: {},
  model_label_demo: {},
  model_label_at: { model: 'llama3.1:8b', host: 'localhost:11434' },
  failure_refused: { step: 3, code: 'TOOL_NOT_FOUND' },
  failure_act_refused: { step: 2, reason: 'disabled', role: 'button', name: 'Place order' },
  failure_site: { step: 4, action_id: 'act_2', status: 'unknown' },
  failure_invalid_reply: { step: 5 },
  failure_submit: { step: 6 },
  reason_consent_toggle: { name: 'I agree to the terms' },
  reason_answers_dialog: { name: 'Yes, cancel it', role: 'alertdialog', dialog: 'Cancel this order?' },
  reason_consent_button: { name: 'Confirm' },
  reason_uploads_file: {},
  reason_password_field: {},
  reason_payment_field: {},
  reason_submits_form: { form: 'Checkout' },
  reason_risky_name: { name: 'Delete account' },
  reason_moves_money: { name: 'Pay now' },
  reason_saves_state: { role: 'switch' },
  reason_saves_value: { role: 'slider' },
  reason_non_web_link: { role: 'link', name: 'Open app' },
  reason_inferred: { role: 'button', name: 'Save', evidence: 'click_listener,cursor_pointer' },
  reason_unknown_control: { role: 'button', name: 'Save draft' },
  reason_unknown_shape: { shape: 'large red circle' },
  reason_unknown_focus: { key: 'Enter' },
  reason_key_submits: { key: 'Enter', field: 'Search', form: 'Find' },
  reason_form_payment: {},
  reason_key_in_field: { key: 'Enter', field: 'Message' },
  reason_page_shortcut: { key: 'e' },
  reason_page_shortcut_modifier: { key: 'Delete' },
  reason_drags_risky: { name: 'Trash' },
  reason_drag_unknown: { name: 'Task 1', onto: 'Done' },
  reason_organisation: { pattern: 'orders.*' },
  reason_off_site_link: { to: 'https://elsewhere.example' },
  reason_wrote_before: { origin: 'http://shop.localhost', control: 'button “Save”', method: 'POST', url: 'http://shop.localhost/api/save' },
  window_one_at_a_time: {},
  window_excluded: { reason: 'payment' },
  window_in_page: {},
  bridge_closed: {},
  bridge_not_installed: {},
  bridge_forbidden: {},
  bridge_exited: {},
  bridge_link_closed: { reason: 'Native host has exited.' },
  bridge_not_yet: {},
  run_failed_observing: { code: 'NO_CONTENT_SCRIPT', message: 'The page in tab 12 did not answer.' },
  element: { role: 'button', name: 'Cancel order' },
  observe_no_answer: { tab: 12 },
  observe_tab_gone: { tab: 12 },
  observe_timeout: { tab: 12, code: 'TIMEOUT' },
  observe_unreachable: { tab: 12, code: 'NO_CONTENT_SCRIPT' },
  observe_bad_answer: { tab: 12, code: 'INVALID_REPLY' },
  observe_failed: { tab: 12, code: 'OBSERVE_FAILED' },
  run_unobserved: { cause: 'observe_timeout', tab: 12, code: 'TIMEOUT' },
  run_storage_full: {},
  run_storage_corrupt: {},
  run_storage_failed: { name: 'TransactionInactiveError' },
  run_internal_error: {},
  unavailable: { part: 'bridge' },
  store_unopened: { error: 'UnknownError: the database connection is closing' },
  token_lifetime: { max_ms: 2_592_000_000 },
  token_not_found: { id: 'tok_doesnotexist' },
  taint_unchanged: { error: 'QuotaExceededError' },
  forget_incomplete: { origin: 'http://shop.localhost', error: 'storage is full' },
  retention_not_applied: { error: 'storage is full' },
  audit_not_cleared: { error: 'storage is full' },
  site_access_refused: { error: 'Permission request denied' },
  run_starting: {},
  run_already_active: { run_id: 'run_1' },
  run_no_web_page: {},
  run_site_not_allowed: { origin: 'http://shop.localhost' },
  run_model_not_ready: {},
  run_not_waiting: { run_id: 'run_1' },
  run_not_active: { run_id: 'run_1' },
  pairing_code_form: {},
  pairing_grant_failed: { error: 'ttl_ms must be in (0, 2592000000]' },
  contract_bad_origin: {},
  contract_site_not_allowed: { origin: 'http://shop.localhost' },
  contract_not_found: { origin: 'http://shop.localhost' },
  contract_revoked: { site: 'Larkspur Home Goods' },
  contract_expired: { site: 'Larkspur Home Goods' },
  contract_key_refused: { site: 'Larkspur Home Goods' },
  contract_sign_in: { site: 'Larkspur Home Goods' },
  contract_signature_refused: { site: 'Larkspur Home Goods' },
  contract_stale: { site: 'Larkspur Home Goods' },
  contract_token_missing: { site: 'Larkspur Home Goods' },
  contract_access_refused: { site: 'Larkspur Home Goods' },
  contract_site_refused: { site: 'Larkspur Home Goods', message: 'Order ORD-1024 has shipped.' },
  contract_unreachable: { site: 'Larkspur Home Goods', origin: 'http://shop.localhost', error: 'Failed to fetch' },
  contract_bad_answer: { site: 'Larkspur Home Goods', status: 502 },
  contract_not_sent: { site: 'Larkspur Home Goods' },
  request_malformed: {},
  internal_error: { code: 'INTERNAL' },
  act_refused: { reason: 'covered', role: 'textbox', name: 'Quantity', cover_role: 'banner', cover_name: 'Cookie notice' },
};

const phraseOf = (code: PhraseCode): Phrase => ({ code, params: SAMPLES[code] as Record<string, string | number> });

/** What the panel shows when it cannot say a phrase: never what it says for one it can. */
const FALLBACK = '(the worker’s English)';
const inWords = (code: PhraseCode) => {
  const words = said(phraseOf(code), FALLBACK);
  return words === FALLBACK ? undefined : words;
};

describe('what the service worker writes, in the person’s language', () => {
  const codes = Object.keys(SAMPLES) as PhraseCode[];

  it('says every code in English and in Vietnamese, every placeholder filled, the Vietnamese not English', () => {
    // The catalogue is read once: read per code, this test outlasted its timeout on a busy machine.
    useMessageSource(catalogueSource(catalogue('en'), 'en-US'));
    const english = new Map(codes.map((c) => [c, inWords(c)]));
    useMessageSource(catalogueSource(catalogue('vi'), 'vi'));
    for (const code of codes) {
      const en = english.get(code);
      const vi = inWords(code);
      expect(en, code).toBeTypeOf('string');
      expect(vi, code).toBeTypeOf('string');
      expect(`${en} ${vi}`, code).not.toMatch(/\$|said_/);
      expect(vi, code).not.toBe(en);
    }
  });

  it('says in English what the worker wrote, word for word where a test or a person reads it', () => {
    expect(said(phraseOf('step_denied'), '')).toBe('You denied this action; nothing was done.');
    expect(said(phraseOf('step_result'), '')).toBe('confirmed (confirmed); order ORD-1024 is cancelled');
    expect(said(phraseOf('run_stuck_act'), '')).toBe('the model asked for list_doctors 3 times in a row; please take a look');
    expect(said(phraseOf('run_denied'), '')).toBe('You denied orders.cancel on order ORD-1024, so the co-pilot stopped there.');
    expect(said(phraseOf('collector_refused'), '')).toBe('The collector at tcp://127.0.0.1:514 refused the connection (is it listening on that port?).');
  });

  it('words the codes inside a phrase (a status, an error code, what reached an agent) and formats its numbers', () => {
    useMessageSource(catalogueSource(catalogue('vi'), 'vi'));
    expect(said(phraseOf('step_result'), '')).toBe('đã xác nhận (chắc chắn); order ORD-1024 đang ở trạng thái cancelled');
    expect(said(phraseOf('step_refused'), '')).toBe('Chưa thực hiện: trang hiện không cung cấp thao tác này (TOOL_NOT_FOUND).');
    expect(said(phraseOf('step_site_failed'), '')).toBe('Trang web báo thất bại: SLOT_TAKEN: that slot was just taken');
    expect(said(phraseOf('taint_bridge_content'), '')).toBe('trạng thái của order ORD-1024 và các thao tác mà trang hiển thị, được trả về qua cầu nối MCP');
    expect(said(phraseOf('run_time_budget'), '')).toBe('Trợ lý đã chạy 10:01, vượt quá thời gian cho phép là 10:00.');
    expect(said({ code: 'taint_bridge_tabs', params: { count: 1 } }, '')).toBe('tiêu đề và địa chỉ của 1 thẻ được liệt kê qua cầu nối MCP');
  });

  it('falls back to the worker’s English for a code it does not know, a value missing or a word it does not know', () => {
    const english = 'The worker’s own sentence.';
    expect(said(undefined, english)).toBe(english);
    expect(said({ code: 'something_newer', params: { x: 1 } }, english)).toBe(english);
    expect(said({ code: 'run_max_steps' }, english)).toBe(english);
    expect(said({ code: 'run_max_steps', params: { max: 'many' } }, english)).toBe('It reached the limit of many steps.');
    expect(said({ code: 'step_refused', params: { code: 'NOT_A_CODE' } }, english)).toBe(english);
    expect(said({ code: 'chain_broken', params: { problem: 'gremlins' } }, english)).toBe(english);
    expect(said({ code: 'step_result', params: { status: 'exploded', certainty: 'confirmed', type: 'order', id: 'x' } }, english)).toBe(english);
    // A name the panel does not own is not a code it knows.
    expect(said({ code: 'constructor' }, english)).toBe(english);
  });

  it('says the roles Steward gives controls in the person’s words, a role it has no word for as the page has it', () => {
    useMessageSource(catalogueSource(catalogue('vi'), 'vi'));
    expect(said(phraseOf('element'), '')).toBe('nút “Cancel order”');
    expect(said({ code: 'reason_inferred', params: { role: 'button', evidence: 'click_listener' } }, '')).toMatch(/^Steward suy ra đây là một nút dựa vào /);
    expect(said({ code: 'reason_unknown_control', params: { role: 'doc-noteref', name: 'Save' } }, '')).toBe('Steward không biết doc-noteref “Save” làm gì');
    useMessageSource(catalogueSource(catalogue('en'), 'en-US'));
    expect(said(phraseOf('element'), '')).toBe('button “Cancel order”');
    expect(said({ code: 'reason_saves_state', params: { role: 'switch' } }, '')).toBe('a switch outside a form may save its new state at once');
  });

  it('keeps the worker’s English one click away only where the sentence leaves part of it out', () => {
    useMessageSource(catalogueSource(catalogue('vi'), 'vi'));
    expect(saidWithRecord(phraseOf('step_denied'), 'You denied this action; nothing was done.')).toEqual({ words: 'Bạn đã từ chối thao tác này; không có gì được thực hiện.' });
    expect(saidWithRecord(phraseOf('step_refused'), 'TOOL_NOT_FOUND: orders.cancel is not available for order:ORD-1024 here.')).toEqual({
      words: 'Chưa thực hiện: trang hiện không cung cấp thao tác này (TOOL_NOT_FOUND).',
      record: 'TOOL_NOT_FOUND: orders.cancel is not available for order:ORD-1024 here.',
    });
    expect(saidWithRecord({ code: 'from_a_newer_worker' }, 'As written.')).toEqual({ words: 'As written.' });
  });
});
