import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat-completions server that answers with scripted replies: the one
 * external service tests may fake (the person would bring their own model). Each request takes
 * the next reply of the script; a function reply sees the request's messages, so a scripted model
 * can react to what Steward showed it (for example obey text injected into the page). A request
 * with `stream: true` gets its reply as server-sent events, a few characters per chunk.
 */

export interface ChatRequestBody {
  model?: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: unknown;
  [key: string]: unknown;
}

/** An HTTP error the server answers with instead of a completion. */
interface ScriptedFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A reply that stops part-way until `resume` settles: streamed (`stream: true`), the first
 * `pauseAt` characters go out and the rest waits, so a test can see what was shown before the end.
 */
interface PausedReply {
  text: string;
  pauseAt: number;
  resume: Promise<unknown>;
}

/** A function reply may take its time (a scripted agent deciding from the page it was shown). */
export type ScriptedReply = string | ScriptedFailure | PausedReply | ((request: ChatRequestBody) => string | ScriptedFailure | Promise<string | ScriptedFailure>);

/** How many characters each streamed chunk carries: a few tokens' worth, as real servers send. */
const CHUNK_CHARS = 6;

export interface ScriptedModel {
  /** Base URL to configure in Steward, ending in `/v1`. */
  url: string;
  /** Replaces what is left of the script. */
  script(replies: ScriptedReply[]): void;
  /** What to answer once the script is used up (default: a 500 saying so). */
  fallback(reply: ScriptedReply | undefined): void;
  /** Every chat request received, in order. */
  readonly requests: ChatRequestBody[];
  stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id: 'chatcmpl-stream', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** Writes `text` as an OpenAI-style event stream, a few characters per event; holds back after `pause.at` until `pause.until` settles. */
async function streamReply(res: ServerResponse, model: string, text: string, pause?: { at: number; until: Promise<unknown> }): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send(chunk(model, { role: 'assistant', content: '' }));
  for (let i = 0; i < text.length; i += CHUNK_CHARS) {
    if (pause && i >= pause.at && i - CHUNK_CHARS < pause.at) await pause.until;
    send(chunk(model, { content: text.slice(i, i + CHUNK_CHARS) }));
  }
  send(chunk(model, {}, 'stop'));
  send('[DONE]');
  res.end();
}

const isPaused = (r: unknown): r is PausedReply => typeof r === 'object' && r !== null && 'pauseAt' in r;

export async function startScriptedModel(opts: { replies?: ScriptedReply[]; host?: string; port?: number; modelId?: string } = {}): Promise<ScriptedModel> {
  let queue: ScriptedReply[] = [...(opts.replies ?? [])];
  let otherwise: ScriptedReply | undefined;
  const requests: ChatRequestBody[] = [];

  const server: Server = createServer((req, res) => {
    void (async () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && path === '/v1/models') return send(200, { object: 'list', data: [{ id: opts.modelId ?? 'scripted', object: 'model' }] });
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return send(404, { error: { message: `no route ${req.method} ${path}` } });
      let body: ChatRequestBody;
      try {
        body = JSON.parse(await readBody(req)) as ChatRequestBody;
      } catch {
        return send(400, { error: { message: 'body is not JSON' } });
      }
      requests.push(body);
      const next = queue.shift() ?? otherwise;
      if (next === undefined) return send(500, { error: { message: 'the scripted model has no reply left' } });
      const reply = typeof next === 'function' ? await next(body) : next;
      const model = body.model ?? 'scripted';
      // Asked to stream (as Steward does when the panel watches), it streams; otherwise one JSON body.
      if (isPaused(reply)) {
        if (body.stream === true) return streamReply(res, model, reply.text, { at: reply.pauseAt, until: reply.resume });
        await reply.resume;
        return send(200, completion(model, reply.text));
      }
      if (typeof reply === 'string') return body.stream === true ? streamReply(res, model, reply) : send(200, completion(model, reply));
      return send(reply.status, reply.body ?? { error: { message: `scripted HTTP ${reply.status}` } }, reply.headers);
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/v1`,
    script: (replies) => {
      queue = [...replies];
    },
    fallback: (reply) => {
      otherwise = reply;
    },
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
