import { ModelFailure } from './model.ts';
import type { ModelErrorCode } from '../../protocol/copilot.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import { SseParser, type SseEvent } from './sse.ts';

/**
 * One JSON POST to a model server, with what every wire format shares: a deadline per attempt, one
 * automatic retry after a short rate limit or a server error, the caller's stop honoured, and
 * failures turned into ModelFailure sentences that never carry the key.
 */

export interface HttpDeps {
  fetch: typeof fetch;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The body; empty when it was streamed to the caller's `onEvent`. */
  text: string;
  /** The body came as server-sent events, each already handed to `onEvent`. */
  streamed?: true;
}

/** Takes each server-sent event of a streamed answer as it arrives; may throw (a ModelFailure ends the request). */
export type OnEvent = (event: SseEvent) => void;

/** Rate limits waited out automatically; longer ones are the person's call. */
const MAX_AUTO_WAIT_MS = 10_000;
const DEFAULT_RATE_WAIT_MS = 2_000;
const SERVER_ERROR_BACKOFF_MS = 500;
const SERVER_ERRORS = new Set([500, 502, 503, 504, 529]);

export function abortError(): Error {
  return new DOMException('The run was stopped.', 'AbortError');
}

/** `Retry-After` in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A failure: `message` for logs and the journal, `said` the same for the panel in the person's language. */
const fail = (code: ModelErrorCode, message: string, said: Phrase, retry_after_ms?: number) =>
  new ModelFailure({ code, message: message.slice(0, 1000), message_said: said, ...(retry_after_ms === undefined ? {} : { retry_after_ms }) });

/** The key and anything shaped like one cut out of text a server sent back. */
function scrub(text: string, key: string | undefined): string {
  let out = key ? text.split(key).join('[key]') : text;
  out = out.replace(/\bsk-[A-Za-z0-9_*-]{8,}/g, '[key]');
  return out.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** What the server said, as a short phrase (its error message, or the start of its body). */
function serverSays(text: string, key: string | undefined): string {
  let said = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof m === 'string') said = m;
  } catch {
    // Not JSON: the raw text is all there is.
  }
  return scrub(said, key);
}

const TOO_LONG = /context_length_exceeded|maximum context length|prompt is too long|context window|too many tokens/i;

/** An answer that is not a success, as the failure the panel shows. */
export function failureFor(answer: HttpAnswer, host: string, key: string | undefined): ModelFailure {
  const said = serverSays(answer.text, key);
  const s = answer.status;
  if (s === 401 || s === 403) return fail('bad_key', `${host} refused the API key (HTTP ${s}). Check the key in Settings → Co-pilot.`, phrase('model_bad_key', { host, status: s }));
  if (s === 429) {
    const wait = retryAfterMs(answer.headers.get('retry-after'));
    const when = wait === undefined ? 'in a minute' : `in ${Math.ceil(wait / 1000)} s`;
    return fail(
      'rate_limited',
      `${host} is limiting requests (HTTP 429). Try again ${when}, or use a plan with higher limits.`,
      phrase('model_rate_limited', { host, seconds: wait === undefined ? undefined : Math.ceil(wait / 1000) }),
      wait,
    );
  }
  if ((s === 400 || s === 413) && TOO_LONG.test(answer.text)) {
    return fail('context_too_long', `The prompt is longer than the model accepts (${said}). Use a model with a larger context window, or a shorter goal.`, phrase('model_too_long', { said }));
  }
  if (SERVER_ERRORS.has(s)) return fail('server_error', `${host} had a server error (HTTP ${s}: ${said}). Try again later.`, phrase('model_server_error', { host, status: s, said }));
  if (s === 404)
    return fail('bad_response', `${host} has no such model or endpoint (HTTP 404: ${said}). Check the endpoint and model in Settings → Co-pilot.`, phrase('model_not_found', { host, said }));
  return fail('bad_response', `${host} rejected the request (HTTP ${s}: ${said}). Check the endpoint and model in Settings → Co-pilot.`, phrase('model_rejected', { host, status: s, said }));
}

/** A browser's `redirect: 'manual'` answer is an opaque redirect (status 0); Node's is the 3xx itself. */
const isRedirect = (res: Response) => res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400);

const redirected = (host: string) =>
  fail(
    'bad_response',
    `${host} answered with a redirect. Steward does not send the prompt on to another address; put the address the co-pilot should use in Settings → Co-pilot.`,
    phrase('model_redirect', { host }),
  );

/** Hands each event of the body to `onEvent` as it arrives; `alive` is called on every chunk (the idle deadline starts again). */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: OnEvent, alive: () => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      alive();
      const events = done ? [...parser.push(decoder.decode()), ...parser.end()] : parser.push(decoder.decode(value, { stream: true }));
      for (const e of events) onEvent(e);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

const isEventStream = (res: Response) => /^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '');

/**
 * One attempt: the answer, or a timeout / network failure; a stop by the caller rethrows as
 * AbortError. A successful answer that streams server-sent events goes to `onEvent` as it comes;
 * then the deadline is one of silence (no byte for `timeoutMs`), so a long reply that keeps
 * coming is not cut.
 */
async function attempt(url: string, init: RequestInit, host: string, deps: HttpDeps, signal: AbortSignal | undefined, onEvent?: OnEvent): Promise<HttpAnswer> {
  if (signal?.aborted) throw abortError();
  const timer = new AbortController();
  let timeout = setTimeout(() => timer.abort(), deps.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  try {
    const res = await deps.fetch(url, { ...init, signal: combined });
    if (isRedirect(res)) throw redirected(host);
    if (onEvent && res.ok && res.body && isEventStream(res)) {
      await readEvents(res.body, onEvent, () => {
        clearTimeout(timeout);
        timeout = setTimeout(() => timer.abort(), deps.timeoutMs);
      });
      return { status: res.status, headers: res.headers, text: '', streamed: true };
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (e) {
    if (e instanceof ModelFailure) throw e;
    if (signal?.aborted) throw abortError();
    if (timer.signal.aborted)
      throw fail(
        'timeout',
        `${host} did not answer within ${Math.round(deps.timeoutMs / 1000)} s. The model may be overloaded or too slow; try again, or pick a faster model.`,
        phrase('model_timeout', { host, seconds: Math.round(deps.timeoutMs / 1000) }),
      );
    const why = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
    throw fail(
      'network',
      `Steward could not reach ${host} (${scrub(why, undefined)}). Check that the server is running and the endpoint in Settings → Co-pilot is right.`,
      phrase('model_unreachable', { host, why: scrub(why, undefined) }),
    );
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * Posts `body` as JSON; retries once after a short rate limit or a server error. Other answers
 * come back as they are; with `onEvent`, a successful answer streamed as server-sent events is
 * handed to it event by event (and comes back `streamed`, with no text).
 */
export async function postJson(url: string, headers: Record<string, string>, body: unknown, deps: HttpDeps, signal?: AbortSignal, onEvent?: OnEvent): Promise<HttpAnswer> {
  const host = new URL(url).host;
  // Never follow a redirect: a 307/308 would resend the prompt (the page content in it) to wherever the Location points.
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), redirect: 'manual' };
  const first = await attempt(url, init, host, deps, signal, onEvent);
  let wait: number | undefined;
  if (first.status === 429) wait = retryAfterMs(first.headers.get('retry-after')) ?? DEFAULT_RATE_WAIT_MS;
  else if (SERVER_ERRORS.has(first.status)) wait = SERVER_ERROR_BACKOFF_MS;
  if (wait === undefined || wait > MAX_AUTO_WAIT_MS) return first;
  await deps.sleep(wait);
  return attempt(url, init, host, deps, signal, onEvent);
}

/** One GET (the connection check), with the same deadline, failures and no redirects as a prompt's POST; no retry. */
export async function getOnce(url: string, headers: Record<string, string>, deps: HttpDeps, signal?: AbortSignal): Promise<HttpAnswer> {
  return attempt(url, { method: 'GET', headers, redirect: 'manual' }, new URL(url).host, deps, signal);
}

export function badResponse(host: string, what: string): ModelFailure {
  return fail('bad_response', `${host} sent an answer Steward cannot read (${what}). Check that the endpoint speaks the chosen provider's format.`, phrase('model_unreadable', { host }));
}

/** The body as JSON, or a bad_response failure. */
export function parseBody(answer: HttpAnswer, host: string): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw badResponse(host, 'the body is not JSON');
  }
}

/** A server that began its streamed answer and then sent an error event instead of the rest. */
export function failedMidStream(host: string, said: unknown, key: string | undefined): ModelFailure {
  const text = typeof said === 'string' ? said : JSON.stringify(said ?? 'no reason given');
  return fail('server_error', `${host} broke off its reply with an error (${scrub(text, key)}). Try again later.`, phrase('model_broke_off', { host, said: scrub(text, key) }));
}
