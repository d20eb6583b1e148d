import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { runFailurePhrase } from '../../../src/background/copilot/failure-phrase.ts';
import { TabUnobserved } from '../../../src/background/copilot/run-ports.ts';
import { noAnswerMessage } from '../../../src/background/core/messenger.ts';
import { observeForPanel } from '../../../src/background/panel/agent.ts';
import type { ObserveOutcome } from '../../../src/background/ports/tab-observer.ts';
import { parseReply } from '../../../src/protocol/channel.ts';
import { CopilotRun, type CopilotEnd } from '../../../src/protocol/copilot.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';
import { CorruptRecordError } from '../../../src/storage/read.ts';
import { endText } from '../../../src/sidepanel/lib/copilot-run.ts';
import { saidWithRecord } from '../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

/**
 * Why a tab could not be observed (This tab) and why a co-pilot run failed ("Steward failed: …"),
 * as the person reads them: a sentence per cause Steward can name, a generic one otherwise, the
 * error's own English one click away; the two fixed wordings byte for byte in English as before.
 */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(catalogue(lang), lang === 'en' ? 'en-US' : 'vi'));
afterEach(() => speak('en'));

/** This tab's line for an observation refused with `code` and `message`: the worker's real reply, parsed as the panel parses it. */
async function thisTab(code: string, message: string) {
  const refused: ObserveOutcome = { ok: false, error: { code, message, retryable: false } };
  const reply = parseReply(PanelRequests, 'panel/observe-tab', await observeForPanel(async () => refused, { tabId: 4 }));
  if (!reply.ok || reply.data.error === undefined) throw new Error('observe-tab answers with why');
  return saidWithRecord(reply.data.error_said, reply.data.error);
}

describe('why This tab could not be observed', () => {
  it('names each cause in Vietnamese, Chrome’s or the page’s words behind Details', async () => {
    speak('vi');
    expect(await thisTab('TIMEOUT', 'The page in tab 4 did not answer within 15000 ms.')).toEqual({
      words: 'Trang trong thẻ 4 không trả lời kịp (TIMEOUT).',
      record: 'TIMEOUT: The page in tab 4 did not answer within 15000 ms.',
    });
    expect(await thisTab('NO_CONTENT_SCRIPT', 'Steward cannot reach the page in tab 4: Could not establish connection. Receiving end does not exist.')).toMatchObject({
      words: 'Steward không truy cập được trang trong thẻ 4 (có thể là trang của trình duyệt, hoặc trang chưa tải xong) (NO_CONTENT_SCRIPT).',
      record: expect.stringContaining('Receiving end does not exist'),
    });
    expect((await thisTab('INVALID_REPLY', "The page's answer does not fit the schema: x")).words).toBe('Trang trong thẻ 4 trả lời theo dạng mà Steward không đọc được (INVALID_REPLY).');
    expect(await thisTab('OBSERVE_FAILED', 'Fusing the observation failed: TypeError: x is undefined')).toEqual({
      words: 'Steward không đọc được trang trong thẻ 4 (OBSERVE_FAILED).',
      record: 'OBSERVE_FAILED: Fusing the observation failed: TypeError: x is undefined',
    });
  });

  it('keeps the fixed wording in English byte for byte, with nothing behind Details', async () => {
    expect(await thisTab('NO_CONTENT_SCRIPT', noAnswerMessage(4))).toEqual({ words: 'NO_CONTENT_SCRIPT: The page in tab 4 did not answer.' });
    speak('vi');
    expect(await thisTab('NO_CONTENT_SCRIPT', noAnswerMessage(4))).toEqual({ words: 'Trang trong thẻ 4 không trả lời Steward (NO_CONTENT_SCRIPT).' });
  });

  it('drops a forged phrase and shows the English', () => {
    speak('vi');
    const raw = { ok: true, data: { state: null, error: 'TIMEOUT: The page in tab 4 did not answer within 15000 ms.', error_said: { code: 'observe_timeout', params: { tab: [4] } } } };
    const reply = parseReply(PanelRequests, 'panel/observe-tab', raw);
    if (!reply.ok) throw new Error('the answer stays');
    expect(reply.data.error_said).toBeUndefined();
    expect(saidWithRecord(reply.data.error_said, reply.data.error!)).toEqual({ words: 'TIMEOUT: The page in tab 4 did not answer within 15000 ms.' });
  });
});

const run = CopilotRun.parse({
  run_id: 'run-1',
  goal: 'cancel order ORD-1024',
  tabId: 4,
  origin: 'http://localhost:4100',
  agent_id: 'agent:copilot-run-1',
  token_id: 'tok_abcdefghijklmnop',
  model_label: 'Demo model (scripted)',
  status: 'stopped',
  started_at: 1_000,
  steps: [],
  budgets: { max_steps: 25, tokens_used: 0, token_budget: 200_000, elapsed_ms: 5_000, time_budget_ms: 600_000 },
});

/** How the run's end reads for a run that failed on `error`, its detail and phrase as run-manager.ts writes them. */
function failedOn(error: Error) {
  const end: CopilotEnd = { kind: 'stopped', reason: 'error', detail: `Steward failed: ${error.message}`, detail_said: runFailurePhrase(error, 4) };
  return endText(end, run);
}

const domException = (name: string, message: string) => new DOMException(message, name);

describe('why a co-pilot run failed ("Steward failed: …")', () => {
  it('says each cause Steward can name in Vietnamese, the error’s words behind Details', () => {
    speak('vi');
    const timeout = failedOn(new TabUnobserved('TIMEOUT', 'The page in tab 4 did not answer within 15000 ms.'));
    expect(timeout.body).toBe('Steward gặp lỗi vì không quan sát được thẻ: Trang trong thẻ 4 không trả lời kịp (TIMEOUT).');
    expect(timeout.record).toBe('Steward failed: Steward could not observe the tab (TIMEOUT: The page in tab 4 did not answer within 15000 ms.)');
    expect(failedOn(domException('QuotaExceededError', 'The quota has been exceeded.')).body).toMatch(/^Steward gặp lỗi: bộ nhớ của trình duyệt dành cho Steward đã đầy\./);
    expect(failedOn(new CorruptRecordError('runs', 'run-1', 'steps: Required')).body).toBe('Steward gặp lỗi: không đọc được một bản ghi trong kho dữ liệu của Steward.');
    const inactive = failedOn(domException('TransactionInactiveError', 'The transaction has finished.'));
    expect(inactive.body).toBe('Steward gặp lỗi: kho dữ liệu của Steward không hoàn tất được một thao tác (TransactionInactiveError).');
    expect(inactive.record).toBe('Steward failed: The transaction has finished.');
    const bug = failedOn(new TypeError("Cannot read properties of undefined (reading 'ref')"));
    expect(bug).toMatchObject({ body: 'Steward gặp lỗi: một lỗi nội bộ đã làm dừng lượt chạy.', record: "Steward failed: Cannot read properties of undefined (reading 'ref')" });
  });

  it('says an unnamed failure generically in English too, the error behind Details, and a tab that did not answer as before', () => {
    expect(failedOn(new TypeError('boom'))).toMatchObject({ body: 'Steward failed: an internal error stopped the run.', record: 'Steward failed: boom' });
    // A DOMException from elsewhere is not called a storage error.
    expect(failedOn(domException('SyntaxError', 'bad selector')).body).toBe('Steward failed: an internal error stopped the run.');
    const unanswered = failedOn(new TabUnobserved('NO_CONTENT_SCRIPT', noAnswerMessage(4)));
    expect(unanswered.body).toBe('Steward failed: Steward could not observe the tab (NO_CONTENT_SCRIPT: The page in tab 4 did not answer.)');
    expect(unanswered.record).toBeUndefined();
  });

  it('shows the English for a cause the panel does not know, and for a phrase that does not fit', () => {
    speak('vi');
    const english = 'Steward failed: Steward could not observe the tab (X: y)';
    const newer: CopilotEnd = { kind: 'stopped', reason: 'error', detail: english, detail_said: { code: 'run_unobserved', params: { cause: 'observe_in_a_newer_way', tab: 4, code: 'X' } } };
    expect(endText(newer, run)).toEqual({ tone: 'bad', title: expect.any(String), body: english });
    // The run still arrives; only its phrase is dropped.
    const forged = CopilotRun.parse({ ...run, end: { kind: 'stopped', reason: 'error', detail: english, detail_said: { code: 'run_internal_error', params: { x: { y: 1 } } } } });
    expect(forged.end).toEqual({ kind: 'stopped', reason: 'error', detail: english });
    expect(endText(forged.end!, run).body).toBe(english);
  });
});
