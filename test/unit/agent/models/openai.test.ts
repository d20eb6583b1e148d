import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../../src/agent/models/create-model.ts';
import { ModelFailure } from '../../../../src/agent/models/model.ts';
import { parseStep } from '../../../../src/agent/step-schema.ts';
import type { ChatMessage } from '../../../../src/agent/ports.ts';
import { closedPort, json, startWireServer, type Handler, type WireServer } from './wire-server.ts';

const KEY = 'sk-test-0123456789abcdefSECRET';
const STEP = JSON.stringify({ kind: 'done', thought: 'It is cancelled.', claim: 'Order ORD-1024 is cancelled.' });
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: "You are Steward's co-pilot." },
  { role: 'user', content: 'Goal (from the person): cancel order ORD-1024' },
];
const completion = (content: string | null) => ({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const ok: Handler = (_, res) => json(res, 200, completion(STEP));

let server: WireServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const slept: number[] = [];
async function client(handlers: Handler[], opts: { key?: string; timeoutMs?: number } = {}) {
  server = await startWireServer(handlers);
  slept.length = 0;
  return createModel(
    { provider: 'openai', endpoint: `${server.url}/v1`, model: 'gpt-4o-mini', key: 'key' in opts ? opts.key : KEY },
    { fetch, timeoutMs: opts.timeoutMs ?? 5000, sleep: (ms) => (slept.push(ms), Promise.resolve()) },
  );
}

async function failure(p: Promise<unknown>): Promise<ModelFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModelFailure);
  const f = e as ModelFailure;
  expect(f.message).not.toContain(KEY);
  expect(f.message).not.toContain('SECRET');
  return f;
}

describe('OpenAI-compatible chat completions against a local server', () => {
  it('posts the prompt with the key and the step schema, and returns the reply text', async () => {
    const model = await client([ok]);
    expect(model.label).toBe(`gpt-4o-mini at ${new URL(server!.url).host}`);
    const text = await model.complete(MESSAGES);
    expect(parseStep(text)).toMatchObject({ ok: true, step: { kind: 'done' } });
    const [req] = server!.received;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toMatchObject({ model: 'gpt-4o-mini', messages: MESSAGES, response_format: { type: 'json_schema', json_schema: { name: 'steward_step' } } });
    const schema = (req!.body.response_format as { json_schema: { schema: { type: string; properties: { kind: { enum: string[] } } } } }).json_schema.schema;
    expect(schema.type).toBe('object');
    expect(schema.properties.kind.enum).toEqual(expect.arrayContaining(['act', 'done', 'ask_person']));
  });

  it('sends no Authorization header without a key (a local server such as Ollama)', async () => {
    const model = await client([ok], { key: undefined });
    await model.complete(MESSAGES);
    expect(server!.received[0]!.headers.authorization).toBeUndefined();
  });

  it('names the demo model as a demo', () => {
    const model = createModel({ provider: 'openai', endpoint: 'http://127.0.0.1:8790/v1', model: 'steward-demo' }, { fetch });
    expect(model.label).toBe('Demo model (scripted)');
  });

  it('401 is a bad key, said without the key even when the server echoes it', async () => {
    const model = await client([(_, res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } })]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('bad_key');
    expect(f.message).toMatch(/refused the API key.*Settings → Co-pilot/);
    expect(server!.received).toHaveLength(1);
  });

  it('429 with a short Retry-After waits it out once and then answers', async () => {
    const model = await client([(_, res) => json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '2' }), ok]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    expect(slept).toEqual([2000]);
    expect(server!.received).toHaveLength(2);
  });

  it('429 with a long Retry-After gives up at once and says when to try again', async () => {
    const model = await client([(_, res) => json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '120' })]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error).toMatchObject({ code: 'rate_limited', retry_after_ms: 120_000 });
    expect(f.message).toContain('in 120 s');
    expect(slept).toEqual([]);
    expect(server!.received).toHaveLength(1);
  });

  it('429 again after the wait is reported as a rate limit (Retry-After as an HTTP date)', async () => {
    const soon = new Date(Date.now() + 5000).toUTCString();
    const limited: Handler = (_, res) => json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': soon });
    const model = await client([limited, limited]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('rate_limited');
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(2000);
    expect(slept[0]).toBeLessThanOrEqual(5000);
  });

  it('a 500 then a success: retried once after a short backoff', async () => {
    const model = await client([(_, res) => json(res, 500, { error: { message: 'internal error' } }), ok]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    expect(slept).toHaveLength(1);
    expect(server!.received).toHaveLength(2);
  });

  it('two 503s are a server error', async () => {
    const down: Handler = (_, res) => json(res, 503, { error: { message: `overloaded (key ${KEY})` } });
    const model = await client([down, down]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('server_error');
    expect(f.message).toMatch(/HTTP 503: overloaded/);
  });

  it('a 307 or 308 to another server is refused: the prompt is never sent on, and the failure says why', async () => {
    const elsewhere = await startWireServer([ok, ok]);
    try {
      for (const status of [307, 308]) {
        const model = await client([(_, res) => json(res, status, {}, { location: `${elsewhere.url}/steal` })]);
        const f = await failure(model.complete(MESSAGES));
        expect(f.error.code).toBe('bad_response');
        expect(f.message).toMatch(/answered with a redirect/);
        expect(server!.received).toHaveLength(1);
        await server!.stop();
        server = undefined;
      }
      expect(elsewhere.received).toEqual([]);
    } finally {
      await elsewhere.stop();
    }
  });

  it('a server that never answers is a timeout', async () => {
    const model = await client([() => undefined], { timeoutMs: 200 });
    const started = Date.now();
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('timeout');
    expect(f.message).toMatch(/did not answer within/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a connection cut midway through the answer is a network failure', async () => {
    const model = await client([
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.write('{"choices":[{"message":');
        setTimeout(() => res.socket?.destroy(), 20);
      },
    ]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('network');
    expect(f.message).toMatch(/^Steward could not reach 127\.0\.0\.1:\d+/);
  });

  it('connection refused is a network failure naming the host', async () => {
    const port = await closedPort();
    const model = createModel({ provider: 'openai', endpoint: `http://127.0.0.1:${port}/v1`, model: 'm', key: KEY }, { fetch, sleep: () => Promise.resolve() });
    const f = await failure(model.complete(MESSAGES));
    expect(f.error.code).toBe('network');
    expect(f.message).toContain(`Steward could not reach 127.0.0.1:${port}`);
  });

  it('a body that is not JSON, or has no content, is a bad response', async () => {
    const model = await client([(_, res) => json(res, 200, '<html>proxy error</html>'), (_, res) => json(res, 200, completion(null)), (_, res) => json(res, 200, { choices: [] })]);
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('bad_response');
    expect((await failure(model.complete(MESSAGES))).message).toMatch(/empty/);
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('bad_response');
  });

  it('a prompt over the context window is context_too_long', async () => {
    const model = await client([
      (_, res) => json(res, 400, { error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } }),
      (_, res) => json(res, 413, { error: { message: 'context_length_exceeded' } }),
    ]);
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('context_too_long');
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('context_too_long');
  });

  it('a server without json_schema support gets the request again without it, and never again', async () => {
    const model = await client([(_, res) => json(res, 400, { error: { message: "Unsupported parameter: 'response_format.type' json_schema" } }), ok, ok]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    const formats = server!.received.map((r) => 'response_format' in r.body);
    expect(formats).toEqual([true, false, false]);
  });

  it('a stop by the person rethrows as an AbortError, not a model error', async () => {
    const model = await client([() => undefined]);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const e = await model.complete(MESSAGES, stop.signal).catch((err: unknown) => err);
    expect(e).not.toBeInstanceOf(ModelFailure);
    expect(e).toMatchObject({ name: 'AbortError' });
  });
});

describe('OpenAI-compatible replies streamed token by token', () => {
  /** A server writing its reply as server-sent events, one chunk at a time, with a pause the test ends. */
  const streaming =
    (events: unknown[], opts: { gate?: Promise<void>; gateAfter?: number } = {}): Handler =>
    (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      void (async () => {
        for (const [i, e] of events.entries()) {
          if (i === opts.gateAfter) await opts.gate;
          res.write(`data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`);
        }
        res.end();
      })();
    };
  const delta = (d: Record<string, unknown>) => ({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: d, finish_reason: null }] });
  const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

  it('asks for a stream, hands out the reply as it grows (before it ends), and returns it whole', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const parts = pieces(STEP, 7);
    const model = await client([streaming([delta({ role: 'assistant', content: '' }), ...parts.map((p) => delta({ content: p })), '[DONE]'], { gate, gateAfter: 4 })]);
    const seen: string[] = [];
    const reply = model.complete(MESSAGES, undefined, (soFar) => seen.push(soFar));
    await expect.poll(() => seen.length).toBe(3);
    // The server holds the rest back: what was handed out so far is only the beginning.
    expect(seen.at(-1)).toBe(parts.slice(0, 3).join(''));
    expect(server!.received[0]!.body).toMatchObject({ stream: true, response_format: { type: 'json_schema' } });
    release();
    expect(await reply).toBe(STEP);
    expect(seen.at(-1)).toBe(STEP);
  });

  it('puts tool-call argument fragments back together by index', async () => {
    const args = pieces(STEP, 5);
    const model = await client([
      streaming([
        delta({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'steward_step', arguments: '' } }] }),
        ...args.map((a) => delta({ tool_calls: [{ index: 0, function: { arguments: a } }] })),
        '[DONE]',
      ]),
    ]);
    expect(await model.complete(MESSAGES, undefined, () => undefined)).toBe(STEP);
  });

  it('a server that ignores `stream` and answers in one piece is read as before', async () => {
    const model = await client([ok]);
    const seen: string[] = [];
    expect(await model.complete(MESSAGES, undefined, (t) => seen.push(t))).toBe(STEP);
    expect(seen).toEqual([]);
  });

  it('an error event in the middle of the stream, or a stream with no text, is a plain failure', async () => {
    let model = await client([streaming([delta({ content: '{"kind":' }), { error: { message: 'overloaded, key sk-abcdefgh12345678 hidden' } }])]);
    const broken = await failure(model.complete(MESSAGES, undefined, () => undefined));
    expect(broken.error.code).toBe('server_error');
    expect(broken.message).toContain('broke off its reply with an error (overloaded');
    expect(broken.message).not.toContain('sk-abcdefgh12345678');
    await server!.stop();
    model = await client([streaming([delta({ role: 'assistant' }), '[DONE]'])]);
    expect((await failure(model.complete(MESSAGES, undefined, () => undefined))).error.code).toBe('bad_response');
  });

  it('a stream that falls silent for longer than the deadline times out', async () => {
    const model = await client([streaming([delta({ content: '{' }), delta({ content: '"kind"' })], { gate: new Promise(() => undefined), gateAfter: 1 })], { timeoutMs: 300 });
    expect((await failure(model.complete(MESSAGES, undefined, () => undefined))).error.code).toBe('timeout');
  });
});
