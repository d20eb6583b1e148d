import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { createChannels } from '../../../src/background/core/channels.ts';
import type { Handlers } from '../../../src/protocol/channel.ts';
import { parseReply } from '../../../src/protocol/channel.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';
import { refusalWithRecord } from '../../../src/sidepanel/lib/refusal-words.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

/**
 * A panel request refused with system text (a schema's complaint about the request, an exception
 * a handler threw): the person reads one sentence in their language, never the zod dump, and the
 * worker's English, with its code, stays one click away (RefusalDetails).
 */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const EN = catalogue('en');
const VI = catalogue('vi');
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(lang === 'en' ? EN : VI, lang === 'en' ? 'en-US' : 'vi'));
afterEach(() => speak('en'));

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const PANEL = { id: ID, url: `chrome-extension://${ID}/src/sidepanel/index.html` };

/** The worker's one message door, as compose.ts builds it, over a panel whose token list throws. */
function door() {
  const panel = new Proxy({} as Handlers<PanelRequests, void>, {
    get: () => () => {
      throw new TypeError('Cannot read properties of undefined (reading "tokens")');
    },
  });
  const channels = createChannels({ panel, content: async () => ({ ok: true, data: null }), extensionId: ID, panelUrlPrefix: `chrome-extension://${ID}/src/sidepanel/` });
  return (message: unknown) => channels.onMessage(message, PANEL);
}

/** The panel's side: the reply parsed as background-client.ts parses it, then worded. */
function shown(raw: unknown) {
  const reply = parseReply(PanelRequests, 'panel/token-revoke', raw);
  if (reply.ok) throw new Error('not refused');
  return { code: reply.error.code, english: reply.error.message, ...refusalWithRecord(reply.error) };
}

describe('a refusal whose English is system text, in the person’s language', () => {
  it('says a request the worker could not read as a sentence in Vietnamese, the zod complaint behind Details', async () => {
    const raw = await door()({ type: 'panel/token-revoke', token_id: 42 });
    speak('vi');
    const r = shown(raw);
    expect(r.code).toBe('INVALID_MESSAGE');
    expect(r.words).toBe(VI.said_request_malformed!.message);
    expect(r.words).not.toContain('token_id');
    // The schema's complaint is still there for a report, one click away, with its code.
    expect(r.record).toBe(`INVALID_MESSAGE: ${r.english}`);
    expect(r.record).toContain('token_id');
  });

  it('says an internal error with its code in Vietnamese and in English, the exception behind Details', async () => {
    const raw = await door()({ type: 'panel/tokens' });
    speak('vi');
    const vi = shown(raw);
    expect(vi.code).toBe('INTERNAL');
    expect(vi.words).toBe('Steward không thể làm việc này: đã xảy ra lỗi nội bộ (mã INTERNAL).');
    expect(vi.record).toBe('INTERNAL: TypeError: Cannot read properties of undefined (reading "tokens")');
    speak('en');
    const en = shown(raw);
    expect(en.words).toBe('Steward could not do this: an internal error (code INTERNAL).');
    expect(en.record).toBe(vi.record);
  });

  it('keeps a refusal worded by its handler as it was, with nothing behind Details', async () => {
    const raw = { ok: false, error: { code: 'TOKEN_NOT_FOUND', message: 'No token tok_1.', retryable: false, said: { code: 'token_not_found', params: { id: 'tok_1' } } } };
    speak('vi');
    expect(shown(raw)).toMatchObject({ words: 'Không có token tok_1.' });
    expect(shown(raw).record).toBeUndefined();
  });

  it('shows the English alone for a code the panel does not know, and drops a forged phrase', () => {
    speak('vi');
    const newer = { ok: false, error: { code: 'INTERNAL', message: 'Error: boom', retryable: true, said: { code: 'internal_error_v2', params: { code: 'INTERNAL' } } } };
    expect(shown(newer)).toEqual({ code: 'INTERNAL', english: 'Error: boom', words: 'Error: boom' });
    const missing = { ok: false, error: { code: 'INTERNAL', message: 'Error: boom', retryable: true, said: { code: 'internal_error' } } };
    expect(shown(missing).words).toBe('Error: boom');
    const forged = { ok: false, error: { code: 'INTERNAL', message: 'Error: boom', retryable: true, said: { code: 'internal_error', params: { code: { evil: true } } } } };
    const r = shown(forged);
    expect(r.code).toBe('INTERNAL');
    expect(r.words).toBe('Error: boom');
    expect(r.record).toBeUndefined();
  });
});
