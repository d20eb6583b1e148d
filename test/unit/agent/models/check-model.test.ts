import { afterEach, describe, expect, it } from 'vitest';
import { checkedModelStatus } from '../../../../src/agent/models/create-model.ts';
import { closedPort, json, startWireServer, type Handler, type WireServer } from './wire-server.ts';
import { failureFor } from '../../../../src/agent/models/http.ts';
import { useMessageSource } from '../../../../src/base/i18n.ts';
import type { ModelStatus } from '../../../../src/protocol/copilot.ts';
import { said } from '../../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../../catalogue-source.ts';
import { readFileSync } from 'node:fs';

/** "Ready" only after the endpoint answered: the connection check against a real local server. */

const KEY = 'sk-test-0123456789abcdefSECRET';
let server: WireServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const deps = { fetch, timeoutMs: 5000, sleep: () => Promise.resolve() };
const models =
  (...ids: string[]): Handler =>
  (_, res) =>
    json(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });

async function check(handlers: Handler[], model = 'llama3.1:8b', provider: 'openai' | 'anthropic' = 'openai') {
  server = await startWireServer(handlers);
  return checkedModelStatus({ provider, endpoint: provider === 'openai' ? `${server.url}/v1` : server.url, model, key: KEY }, deps);
}

describe('the model connection check', () => {
  it('is ready when the server answers its model list with the model in it, asked with the key and no tokens spent', async () => {
    const status = await check([models('qwen2.5:7b', 'llama3.1:8b')]);
    expect(status).toMatchObject({ ready: true, checked: true, has_key: true });
    expect(server!.received).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }) })]);
  });

  it('a dead endpoint is not ready, in one plain sentence that names it', async () => {
    const port = await closedPort();
    const status = await checkedModelStatus({ provider: 'openai', endpoint: `http://127.0.0.1:${port}/v1`, model: 'llama3.1:8b' }, deps);
    expect(status).toMatchObject({ ready: false, checked: false });
    expect(status.detail).toMatch(new RegExp(`^Steward could not reach 127\\.0\\.0\\.1:${port} \\(.+\\)\\. Check that the server is running`));
  });

  it('a refused key, a server error and an unknown model are each said plainly, never with the key', async () => {
    const refused = await check([(_, res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}` } })]);
    expect(refused).toMatchObject({ ready: false, detail: expect.stringContaining('refused the API key (HTTP 401)') });
    await server!.stop();
    const missing = await check([models('qwen2.5:7b', 'mistral')]);
    expect(missing).toMatchObject({ ready: false, detail: expect.stringContaining('has no model named “llama3.1:8b” (it offers qwen2.5:7b, mistral)') });
    await server!.stop();
    const broken = await check([(_, res) => json(res, 503, { error: { message: 'overloaded' } })]);
    expect(broken).toMatchObject({ ready: false, detail: expect.stringContaining('HTTP 503') });
    for (const s of [refused, missing, broken]) expect(JSON.stringify(s)).not.toContain('SECRET');
  });

  it('Anthropic: the model list answers with the key and the API version (its dated ids are no verdict on an alias)', async () => {
    const status = await check([models('claude-sonnet-4-5-20250929')], 'claude-sonnet-4-5', 'anthropic');
    expect(status).toMatchObject({ ready: true, checked: true });
    expect(server!.received[0]).toMatchObject({ method: 'GET', path: '/v1/models', headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } });
  });

  it('settings that are not complete are not ready without any call', async () => {
    server = await startWireServer([]);
    const status = await checkedModelStatus({ provider: 'openai', endpoint: `${server.url}/v1`, model: '' }, deps);
    expect(status).toMatchObject({ ready: false, checked: false, detail: expect.stringContaining('Enter the name of the model') });
    expect(server.received).toEqual([]);
  });

  it('says why in the person’s language: in English word for word as the worker wrote it, in Vietnamese from the catalogue', async () => {
    const statuses: ModelStatus[] = [];
    const port = await closedPort();
    statuses.push(await checkedModelStatus({ provider: 'openai', endpoint: `http://127.0.0.1:${port}/v1`, model: 'llama3.1:8b' }, deps));
    statuses.push(await check([(_, res) => json(res, 401, { error: { message: 'no' } })]));
    await server!.stop();
    statuses.push(await check([models('qwen2.5:7b', 'mistral')]));
    await server!.stop();
    statuses.push(await check([(_, res) => json(res, 503, { error: { message: 'overloaded' } })]));
    statuses.push(await checkedModelStatus({ provider: 'openai', endpoint: `${server!.url}/v1`, model: '' }, deps));
    statuses.push(await checkedModelStatus({ provider: 'openai', endpoint: '', model: 'x' }, deps));
    statuses.push(await checkedModelStatus({ provider: 'openai', endpoint: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }, deps));
    const load = (lang: string) => JSON.parse(readFileSync(new URL(`../../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;

    useMessageSource(catalogueSource(load('en'), 'en-US'));
    for (const s of statuses) {
      expect(s.detail_said, s.detail).toBeDefined();
      expect(said(s.detail_said, '(not said)')).toBe(s.detail);
      expect(said(s.model_label_said, s.model_label)).toBe(s.model_label);
    }
    useMessageSource(catalogueSource(load('vi'), 'vi'));
    expect(said(statuses[0]!.detail_said, '')).toMatch(new RegExp(`^Steward không kết nối được tới 127\\.0\\.0\\.1:${port} \\(.+\\)\\. Hãy kiểm tra`));
    expect(said(statuses[2]!.detail_said, '')).toContain('không có mô hình nào tên “llama3.1:8b” (máy chủ này có: qwen2.5:7b, mistral)');
    for (const s of statuses) expect(said(s.detail_said, s.detail!)).not.toBe(s.detail);
  });

  it('a failed answer of every kind is said by the panel in English exactly as the worker wrote it', () => {
    useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Catalogue, 'en-US'));
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers), text });
    const failures = [
      answer(401, ''),
      answer(429, '', { 'retry-after': '30' }),
      answer(429, ''),
      answer(400, JSON.stringify({ error: { message: 'maximum context length is 8192 tokens' } })),
      answer(502, 'bad gateway'),
      answer(404, 'not found'),
      answer(422, JSON.stringify({ message: 'bad input' })),
    ].map((a) => failureFor(a, 'llm.example.org', undefined));
    for (const f of failures) expect(said(f.error.message_said, '(not said)')).toBe(f.message);
  });
});
