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
    const english = new Map(codes.map((c) => (useMessageSource(catalogueSource(catalogue('en'), 'en-US')), [c, inWords(c)])));
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
