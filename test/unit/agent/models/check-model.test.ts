import { afterEach, describe, expect, it } from 'vitest';
import { checkedModelStatus } from '../../../../src/agent/models/create-model.ts';
import { closedPort, json, startWireServer, type Handler, type WireServer } from './wire-server.ts';

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
});
