import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../../src/agent/models/create-model.ts';
import { ModelFailure } from '../../../../src/agent/models/model.ts';
import type { ChatMessage } from '../../../../src/agent/ports.ts';
import { parseStep } from '../../../../src/agent/step-schema.ts';
import { closedPort, json, startWireServer, type Handler, type WireServer } from './wire-server.ts';

const KEY = 'sk-ant-api03-0123456789SECRET';
const STEP = { kind: 'act', thought: 'Cancel it.', action: { name: 'orders.cancel', input: {} }, expect: 'the order is cancelled' };
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: "You are Steward's co-pilot." },
  { role: 'user', content: 'Goal (from the person): cancel order ORD-1024' },
  { role: 'assistant', content: 'not json' },
  { role: 'user', content: 'Your reply is not one JSON object.' },
];
const message = (content: unknown[]) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason: 'tool_use',
  usage: { input_tokens: 10, output_tokens: 5 },
});
const toolUse: Handler = (_, res) => json(res, 200, message([{ type: 'tool_use', id: 'toolu_1', name: 'steward_step', input: STEP }]));
const anthropicError = (type: string, msg: string) => ({ type: 'error', error: { type, message: msg } });

let server: WireServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const slept: number[] = [];
async function client(handlers: Handler[], timeoutMs = 5000) {
  server = await startWireServer(handlers);
  slept.length = 0;
  return createModel({ provider: 'anthropic', endpoint: server.url, model: 'claude-sonnet-4-5', key: KEY }, { fetch, timeoutMs, sleep: (ms) => (slept.push(ms), Promise.resolve()) });
}

async function failure(p: Promise<unknown>): Promise<ModelFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModelFailure);
  expect((e as Error).message).not.toContain('SECRET');
  return e as ModelFailure;
}

describe('Anthropic Messages API against a local server', () => {
  it('sends the documented request and returns the forced tool call as the step', async () => {
    const model = await client([toolUse]);
    expect(model.label).toBe('claude-sonnet-4-5 (Anthropic)');
    const text = await model.complete(MESSAGES);
    expect(parseStep(text)).toMatchObject({ ok: true, step: { kind: 'act', action: { name: 'orders.cancel' } } });
    const [req] = server!.received;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(req!.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' });
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: expect.any(Number) as number,
      system: "You are Steward's co-pilot.",
      messages: MESSAGES.slice(1),
      tool_choice: { type: 'tool', name: 'steward_step' },
      tools: [{ name: 'steward_step', input_schema: { type: 'object' } }],
    });
  });

  it('falls back to the text block when there is no tool call', async () => {
    const model = await client([(_, res) => json(res, 200, message([{ type: 'text', text: JSON.stringify(STEP) }]))]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
  });

  it('an endpoint given with /v1 is not doubled', async () => {
    server = await startWireServer([toolUse]);
    await createModel({ provider: 'anthropic', endpoint: `${server.url}/v1/`, model: 'claude-haiku-4-5', key: KEY }, { fetch }).complete(MESSAGES);
    expect(server.received[0]!.path).toBe('/v1/messages');
  });

  it('401 is a bad key', async () => {
    const model = await client([(_, res) => json(res, 401, anthropicError('authentication_error', `invalid x-api-key ${KEY}`))]);
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('bad_key');
  });

  it('429 with a short retry-after is waited out once; a long one is given up on', async () => {
    const limited =
      (s: string): Handler =>
      (_, res) =>
        json(res, 429, anthropicError('rate_limit_error', 'Number of request tokens has exceeded your rate limit.'), { 'retry-after': s });
    const model = await client([limited('3'), toolUse, limited('60')]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    expect(slept).toEqual([3000]);
    const f = await failure(model.complete(MESSAGES));
    expect(f.error).toMatchObject({ code: 'rate_limited', retry_after_ms: 60_000 });
  });

  it('an overloaded server (529) then a success is retried once', async () => {
    const model = await client([(_, res) => json(res, 529, anthropicError('overloaded_error', 'Overloaded')), toolUse]);
    expect(parseStep(await model.complete(MESSAGES)).ok).toBe(true);
    expect(server!.received).toHaveLength(2);
  });

  it('"prompt is too long" is context_too_long', async () => {
    const model = await client([(_, res) => json(res, 400, anthropicError('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'))]);
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('context_too_long');
  });

  it('a timeout, a cut connection, a refused connection and a non-JSON body', async () => {
    const model = await client(
      [
        () => undefined,
        (_, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '999' });
          res.write('{"content":[');
          setTimeout(() => res.socket?.destroy(), 20);
        },
        (_, res) => json(res, 200, 'event: ping'),
      ],
      300,
    );
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('timeout');
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('network');
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('bad_response');
    const port = await closedPort();
    const refused = createModel({ provider: 'anthropic', endpoint: `http://127.0.0.1:${port}`, model: 'claude-haiku-4-5', key: KEY }, { fetch });
    const f = await failure(refused.complete(MESSAGES));
    expect(f.error.code).toBe('network');
    expect(f.message).toContain(`127.0.0.1:${port}`);
  });
});

describe('Anthropic replies streamed token by token', () => {
  const sse =
    (events: Array<[string, unknown]>, opts: { gate?: Promise<void>; gateAfter?: number } = {}): Handler =>
    (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void (async () => {
        for (const [i, [event, data]] of events.entries()) {
          if (i === opts.gateAfter) await opts.gate;
          res.write(`event: ${event}\r\ndata: ${JSON.stringify(data)}\r\n\r\n`);
        }
        res.end();
      })();
    };
  const stepJson = JSON.stringify(STEP);
  const fragments = Array.from({ length: Math.ceil(stepJson.length / 9) }, (_, i) => stepJson.slice(i * 9, (i + 1) * 9));
  const toolStream = (): Array<[string, unknown]> => [
    ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'steward_step', input: {} } }],
    ['ping', { type: 'ping' }],
    ...fragments.map((f): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: f } }]),
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' } }],
    ['message_stop', { type: 'message_stop' }],
  ];

  it('asks for a stream, hands out the tool call’s JSON as it is written (before it ends), and returns it whole', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const model = await client([sse(toolStream(), { gate, gateAfter: 6 })]);
    const seen: string[] = [];
    const reply = model.complete(MESSAGES, undefined, (t) => seen.push(t));
    await expect.poll(() => seen.length).toBe(3);
    expect(seen.at(-1)).toBe(fragments.slice(0, 3).join(''));
    expect(server!.received[0]!.body).toMatchObject({ stream: true, tool_choice: { type: 'tool', name: 'steward_step' } });
    release();
    const text = await reply;
    expect(parseStep(text)).toMatchObject({ ok: true, step: STEP });
  });

  it('text blocks stream too, and an error event breaks the reply off with a plain sentence', async () => {
    let model = await client([
      sse([
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: stepJson.slice(0, 20) } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: stepJson.slice(20) } }],
        ['message_stop', { type: 'message_stop' }],
      ]),
    ]);
    expect(await model.complete(MESSAGES, undefined, () => undefined)).toBe(stepJson);
    await server!.stop();
    model = await client([sse([...toolStream().slice(0, 4), ['error', anthropicError('overloaded_error', 'Overloaded')]])]);
    const e = await model.complete(MESSAGES, undefined, () => undefined).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ModelFailure);
    expect((e as ModelFailure).error).toMatchObject({ code: 'server_error', message: expect.stringContaining('broke off its reply with an error (Overloaded)') });
  });
});
