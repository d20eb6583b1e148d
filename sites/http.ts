/**
 * A tiny router and HTTP helpers for the demo sites, built on `node:http` only.
 *
 * - routes with `:param` segments, 404 / 405 handled here;
 * - bodies read with a hard size limit, parsed as JSON or form-urlencoded, validated with zod;
 * - every failure becomes a clear 4xx with `{ error: { code, message } }` (or an HTML page
 *   when a browser posted a plain form);
 * - a bounded request log per site, so tests can check what really reached the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

/** Largest request body accepted (bytes). Larger bodies get 413. */
const MAX_BODY_BYTES = 64 * 1024;
/** Past this many bytes the connection is dropped instead of drained. */
const HARD_BODY_CAP_BYTES = 4 * 1024 * 1024;
/** How many requests each site remembers. */
const REQUEST_LOG_LIMIT = 500;

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly url: URL;
  params: Readonly<Record<string, string>>;
  /** The parsed body once `parseBody` ran; kept for the request log. */
  body?: unknown;
}

export type Handler = (ctx: RequestContext) => void | Promise<void>;

export interface RequestLogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  /** Value of the `x-demo-source` header the demo pages send (e.g. `tool:list_doctors`). */
  source: string | null;
  body?: unknown;
}

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  keys: string[];
  handler: Handler;
}

export interface RouterOptions {
  /** Renders an HTML error page for browser (non-API) requests. */
  renderHtmlError?: (error: HttpError) => string;
  /** Called once per finished request (not for `/__demo/` control requests). */
  onRequestLogged?: (entry: Omit<RequestLogEntry, 'seq'>) => void;
}

function compile(pattern: string): { regex: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        keys.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${source}$`), keys };
}

export class Router {
  private readonly routes: Route[] = [];
  private readonly options: RouterOptions;

  constructor(options: RouterOptions = {}) {
    this.options = options;
  }

  on(method: string, pattern: string, handler: Handler): this {
    const { regex, keys } = compile(pattern);
    this.routes.push({ method: method.toUpperCase(), pattern, regex, keys, handler });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.on('GET', pattern, handler);
  }

  post(pattern: string, handler: Handler): this {
    return this.on('POST', pattern, handler);
  }

  /** The `node:http` request listener. Never throws; never leaves a request hanging. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    void this.handle(req, res);
  };

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      url = new URL('http://localhost/');
    }
    const ctx: RequestContext = { req, res, method, url, params: {} };
    try {
      await this.dispatch(ctx);
    } catch (err) {
      this.sendError(ctx, err);
    } finally {
      if (!res.writableEnded && !res.headersSent) this.sendError(ctx, new HttpError(500, 'NO_RESPONSE', 'The handler sent no response.'));
      this.log(ctx);
    }
  }

  private async dispatch(ctx: RequestContext): Promise<void> {
    const path = ctx.url.pathname;
    const lookup = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const match = route.regex.exec(path);
      if (!match) continue;
      if (route.method !== lookup) {
        allowed.add(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.keys.forEach((key, i) => {
        try {
          params[key] = decodeURIComponent(match[i + 1] ?? '');
        } catch {
          throw new HttpError(400, 'BAD_PATH', `Path segment "${key}" is not valid URL encoding.`);
        }
      });
      ctx.params = params;
      await route.handler(ctx);
      return;
    }
    if (allowed.size > 0) {
      ctx.res.setHeader('allow', [...allowed].join(', '));
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${path}; use ${[...allowed].join(' or ')}.`);
    }
    throw new HttpError(404, 'NOT_FOUND', `Nothing at ${path}.`);
  }

  private sendError(ctx: RequestContext, err: unknown): void {
    const { res } = ctx;
    const error = err instanceof HttpError ? err : new HttpError(500, 'INTERNAL', err instanceof Error ? err.message : 'Internal error');
    if (!(err instanceof HttpError)) console.error('[demo-sites] unexpected error:', err);
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error.status === 413) res.setHeader('connection', 'close');
    if (!wantsJson(ctx) && this.options.renderHtmlError) {
      sendHtml(res, error.status, this.options.renderHtmlError(error));
      return;
    }
    sendJson(res, error.status, errorBody(error));
  }

  private log(ctx: RequestContext): void {
    const path = ctx.url.pathname;
    if (!this.options.onRequestLogged || path.startsWith('/__demo/')) return;
    const source = ctx.req.headers['x-demo-source'];
    this.options.onRequestLogged({
      at: new Date().toISOString(),
      method: ctx.method,
      path: path + ctx.url.search,
      status: ctx.res.statusCode,
      source: typeof source === 'string' ? source.slice(0, 200) : null,
      ...(ctx.body !== undefined ? { body: boundedForLog(ctx.body) } : {}),
    });
  }
}

/** Bodies larger than this are logged as a size only. */
const LOGGED_BODY_LIMIT = 4096;

function boundedForLog(body: unknown): unknown {
  const size = JSON.stringify(body)?.length ?? 0;
  return size > LOGGED_BODY_LIMIT ? { truncated: true, json_chars: size } : body;
}

function errorBody(error: HttpError): { error: { code: string; message: string; retryable: boolean; details?: unknown } } {
  return {
    error: {
      code: error.code,
      message: error.message,
      retryable: error.status >= 500 || error.status === 429,
      ...(error.details !== undefined ? { details: error.details } : {}),
    },
  };
}

/** JSON for API and control paths, or when the client asked for JSON; HTML otherwise. */
export function wantsJson(ctx: Pick<RequestContext, 'req' | 'url'>): boolean {
  const path = ctx.url.pathname;
  if (path.startsWith('/api/') || path.startsWith('/__demo/')) return true;
  const accept = String(ctx.req.headers.accept ?? '');
  const contentType = String(ctx.req.headers['content-type'] ?? '');
  if (contentType.includes('application/json')) return true;
  if (accept.includes('text/html')) return false;
  return accept.includes('application/json');
}

const COMMON_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function send(res: ServerResponse, status: number, contentType: string, body: string | Uint8Array): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(COMMON_HEADERS)) res.setHeader(k, v);
  res.setHeader('content-type', contentType);
  res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body, null, 2));
}

export function sendHtml(res: ServerResponse, status: number, body: string | SafeHtml): void {
  send(res, status, 'text/html; charset=utf-8', String(body));
}

export function sendScript(res: ServerResponse, body: string): void {
  send(res, 200, 'text/javascript; charset=utf-8', body);
}

export function sendBytes(res: ServerResponse, body: Uint8Array): void {
  send(res, 200, 'application/octet-stream', body);
}

/** 303 See Other: the browser follows with a GET (post/redirect/get). */
export function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 303;
  for (const [k, v] of Object.entries(COMMON_HEADERS)) res.setHeader(k, v);
  res.setHeader('location', location);
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(`See ${location}`);
}

/** Reads the raw body with a size limit. Overlong bodies are drained (up to a hard cap) and rejected with 413. */
export function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const tooLargeError = () => new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than the ${limit}-byte limit.`);
    if (Number.isFinite(declared) && declared > HARD_BODY_CAP_BYTES) {
      req.resume();
      reject(tooLargeError());
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (size > HARD_BODY_CAP_BYTES) {
        req.destroy();
        reject(tooLargeError());
        return;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(tooLargeError()) : resolve(Buffer.concat(chunks))));
    req.on('error', (err) => reject(new HttpError(400, 'BAD_REQUEST', `Could not read the request body: ${err.message}`)));
  });
}

/** Parses a JSON or form-urlencoded body into a plain value (an empty body is `{}`). */
async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const raw = await readRawBody(req, limit);
  const type =
    String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() ?? '';
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if (type === 'application/json' || type.endsWith('+json') || type === '' || type === 'text/plain') {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new HttpError(400, 'INVALID_JSON', `Request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not supported; send application/json.`);
}

/** Formats zod issues as one readable sentence plus a machine-readable list. */
function describeZodError(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  return { message: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues };
}

/** Validates any value against a schema, turning failures into 400 INVALID_INPUT. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what = 'Request body'): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { message, issues } = describeZodError(parsed.error);
    throw new HttpError(400, 'INVALID_INPUT', `${what} is invalid: ${message}`, { issues });
  }
  return parsed.data;
}

/** Reads, parses and validates the body; stores it on the context for the request log. */
export async function parseBody<S extends z.ZodType>(ctx: RequestContext, schema: S): Promise<z.output<S>> {
  const body = await readBody(ctx.req);
  ctx.body = body;
  return validate(schema, body);
}

/** Query parameters as a plain object (first value wins). */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}

/** A fixed-size log of requests. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  readonly add = (entry: Omit<RequestLogEntry, 'seq'>): void => {
    this.seq += 1;
    this.entries.push({ seq: this.seq, ...entry });
    if (this.entries.length > REQUEST_LOG_LIMIT) this.entries.splice(0, this.entries.length - REQUEST_LOG_LIMIT);
  };
  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }
  /** Requests ever seen since the last clear (the list itself is bounded). */
  get total(): number {
    return this.seq;
  }
  clear(): void {
    this.entries = [];
    this.seq = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// HTML escaping

/** HTML that is already safe to emit as is. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Marks a string as trusted HTML (only for markup written in this repository). */
export function raw(value: string): SafeHtml {
  return new SafeHtml(value);
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Template tag: interpolated values are escaped unless they are SafeHtml (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += renderValue(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** A `<script type="application/ld+json">` block that cannot break out of its element. */
export function jsonLd(data: unknown): SafeHtml {
  const json = JSON.stringify(data, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return raw(`<script type="application/ld+json">\n${json}\n</script>`);
}
