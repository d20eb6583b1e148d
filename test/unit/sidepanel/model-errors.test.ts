import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { ModelErrorCode } from '../../../src/protocol/copilot.ts';
import { modelErrorText } from '../../../src/sidepanel/lib/model-errors.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (the setup installs English before each test). */
const vietnamese = () => useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue, 'vi'));

/** The wait a rate limit of `ms` asks for, as its sentence says it (English or Vietnamese). */
const waitText = (ms: number) => {
  const todo = modelErrorText({ code: 'rate_limited', retry_after_ms: ms }).todo;
  return (/^Wait (.+), then start the run again/.exec(todo) ?? /^Hãy chờ (.+) rồi bắt đầu lại/.exec(todo))?.[1];
};

describe('model errors in plain sentences', () => {
  it('says what happened and what to do for every code the worker can send', () => {
    for (const code of ModelErrorCode.options) {
      const t = modelErrorText({ code });
      expect(t.sentence, code).toMatch(/^[A-Z].*\.$/);
      expect(t.todo, code).toMatch(/^[A-Z].*\.$/);
      expect(t.sentence, code).not.toMatch(new RegExp(code));
    }
  });

  it('sends the person to Settings for a bad key and a missing setup, not for a server’s own trouble', () => {
    expect(modelErrorText({ code: 'bad_key' })).toMatchObject({ sentence: 'The model’s server refused the API key.', settings: true });
    expect(modelErrorText({ code: 'bad_key' }).todo).toContain('Settings → Co-pilot');
    expect(modelErrorText({ code: 'not_configured' }).settings).toBe(true);
    expect(modelErrorText({ code: 'network' }).settings).toBe(true);
    expect(modelErrorText({ code: 'server_error' }).settings).toBe(false);
    expect(modelErrorText({ code: 'rate_limited' }).settings).toBe(false);
  });

  it('tells how long to wait after a rate limit when the server said so', () => {
    expect(modelErrorText({ code: 'rate_limited', retry_after_ms: 30_000 }).todo).toMatch(/^Wait 30 seconds, then start the run again/);
    expect(modelErrorText({ code: 'rate_limited', retry_after_ms: 120_000 }).todo).toMatch(/^Wait 2 minutes/);
    expect(modelErrorText({ code: 'rate_limited' }).todo).toMatch(/^Wait a little/);
  });

  it('rounds waits up, and never says "0 seconds"', () => {
    expect(waitText(0)).toBe('1 second');
    expect(waitText(1_200)).toBe('2 seconds');
    expect(waitText(89_000)).toBe('89 seconds');
    expect(waitText(91_000)).toBe('2 minutes');
  });

  it('says the same in Vietnamese, every code with its own sentence and what to do', () => {
    vietnamese();
    expect(modelErrorText({ code: 'bad_key' })).toEqual({
      sentence: 'Máy chủ của mô hình đã từ chối khoá API.',
      todo: 'Hãy kiểm tra khoá trong Cài đặt → Trợ lý, lưu lại rồi bắt đầu lại lần chạy.',
      settings: true,
    });
    expect(modelErrorText({ code: 'rate_limited', retry_after_ms: 30_000 }).todo).toMatch(/^Hãy chờ 30 giây rồi bắt đầu lại/);
    expect(waitText(120_000)).toBe('2 phút');
    const sentences = ModelErrorCode.options.map((code) => modelErrorText({ code }).sentence);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const s of sentences) expect(s).toMatch(/[ạ-ỹăâđêôơư]/);
  });
});
