import { describe, expect, it } from 'vitest';
import { ModelErrorCode } from '../../../src/protocol/copilot.ts';
import { modelErrorText, waitText } from '../../../src/sidepanel/lib/model-errors.ts';

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
});
