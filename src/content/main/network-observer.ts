import type { NetworkWire, PageChannelPush, RequestWire } from '../../protocol/page-channel.ts';
import { MAX_BODY_CHARS, boundJson, isJsonContentType, redactUrl } from './network-bounds.ts';

/**
 * Main world, document_start: wraps `fetch` and `XMLHttpRequest` to see the same-origin JSON
 * responses the page reads (its own view of the resource: "Live status" comes from one). Only
 * response bodies are read — never request bodies, never headers — from a clone, size-bounded,
 * with secret-looking keys redacted. The wrappers are transparent: the page gets its original
 * response (or error) unchanged, and nothing here can throw into the page.
 *
 * Everything the page could tamper with later (prototypes, JSON.parse) is captured at install.
 *
 * It also tells the act side about every request's start and end (method and URL only), so an
 * act settles once none is in flight and its result can name the requests that may have written.
 */

export type EmitRecord = (record: NetworkWire) => void;
export type EmitRequest = (request: RequestWire) => void;

/** The parts of a window the observer touches; a real `window`, or a fake in tests. */
export interface ObservableWindow {
  fetch: typeof fetch;
  XMLHttpRequest?: typeof XMLHttpRequest;
  location: { href: string; origin: string };
  navigator?: { sendBeacon?: (url: string | URL, data?: BodyInit | null) => boolean };
}

/** Numbers the requests of this document, so a start and its end can be matched. */
function requestIds(): () => number {
  let next = 0;
  return () => ++next;
}

/** Captured once: page scripts that patch these later cannot reach into the observer. */
function captureIntrinsics() {
  const decoder = new TextDecoder();
  return {
    clone: Response.prototype.clone,
    headerGet: Headers.prototype.get,
    parse: JSON.parse,
    decode: decoder.decode.bind(decoder) as (input?: Uint8Array, options?: { stream?: boolean }) => string,
  };
}

type Intrinsics = ReturnType<typeof captureIntrinsics>;

function sameOrigin(url: string, win: ObservableWindow): string | undefined {
  const clean = redactUrl(url, win.location.href);
  if (!clean) return undefined;
  return new URL(clean).origin === win.location.origin ? clean : undefined;
}

/** Reads at most `limit` characters of a body; undefined when it is longer (then it is not parsed at all). */
async function readBounded(body: ReadableStream<Uint8Array>, limit: number, intrinsics: Intrinsics): Promise<string | undefined> {
  const reader = body.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + intrinsics.decode();
    text += intrinsics.decode(value, { stream: true });
    if (text.length > limit) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
  }
}

function record(url: string, method: string, status: number, body: string | undefined, intrinsics: Intrinsics): NetworkWire {
  if (body === undefined) return { url, method, status, json: null, truncated: true };
  let parsed: unknown;
  try {
    parsed = intrinsics.parse(body);
  } catch {
    return { url, method, status, json: null, truncated: false };
  }
  const bounded = boundJson(parsed);
  return { url, method, status, json: bounded.json, truncated: bounded.truncated };
}

function methodOf(input: unknown, init: unknown): string {
  const fromInit = typeof init === 'object' && init !== null ? (init as { method?: unknown }).method : undefined;
  const fromRequest = typeof Request !== 'undefined' && input instanceof Request ? input.method : undefined;
  const m = String(fromInit ?? fromRequest ?? 'GET').toUpperCase();
  return /^[A-Z]{1,16}$/.test(m) ? m : 'GET';
}

function urlOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  if (typeof Request !== 'undefined' && input instanceof Request) return input.url;
  return String(input);
}

function wrapFetch(win: ObservableWindow, emit: EmitRecord, intrinsics: Intrinsics, request: EmitRequest, nextId: () => number): void {
  const original = win.fetch;
  if (typeof original !== 'function') return;
  const observe = async (response: Response, requestUrl: string, method: string) => {
    if (response.type === 'opaque' || response.type === 'opaqueredirect') return;
    const url = sameOrigin(response.url || requestUrl, win);
    if (!url || !isJsonContentType(Reflect.apply(intrinsics.headerGet, response.headers, ['content-type']))) return;
    const declared = Number(Reflect.apply(intrinsics.headerGet, response.headers, ['content-length']));
    if (Number.isFinite(declared) && declared > MAX_BODY_CHARS * 4) return emit(record(url, method, response.status, undefined, intrinsics));
    const copy = Reflect.apply(intrinsics.clone, response, []) as Response;
    const body = copy.body ? await readBounded(copy.body, MAX_BODY_CHARS, intrinsics) : '';
    emit(record(url, method, response.status, body, intrinsics));
  };
  const wrapped = function (this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    // Same `this` and arguments as the page used, so the page sees exactly the original behaviour.
    const result = Reflect.apply(original, this, [input, init]) as Promise<Response>;
    try {
      const requestUrl = urlOf(input);
      const method = methodOf(input, init);
      const id = nextId();
      request({ phase: 'start', id, method, url: redactUrl(requestUrl, win.location.href) ?? '', kind: 'fetch' });
      result.then(
        (response) => request({ phase: 'end', id, status: statusOf(response.status) }),
        () => request({ phase: 'end', id, status: 0 }),
      );
      result.then((response) => observe(response, requestUrl, method)).catch(() => undefined);
    } catch {
      // never disturb the page
    }
    return result;
  };
  win.fetch = wrapped as typeof fetch;
}

const statusOf = (status: unknown): number => (typeof status === 'number' && Number.isInteger(status) && status >= 0 && status <= 999 ? status : 0);

function wrapXhr(win: ObservableWindow, emit: EmitRecord, intrinsics: Intrinsics, request: EmitRequest, nextId: () => number): void {
  const Xhr = win.XMLHttpRequest;
  if (typeof Xhr !== 'function') return;
  const proto = Xhr.prototype;
  const open = proto.open;
  const send = proto.send;
  const addListener = EventTarget.prototype.addEventListener;
  const getHeader = proto.getResponseHeader;
  const requests = new WeakMap<XMLHttpRequest, { method: string; url: string }>();

  const observe = (xhr: XMLHttpRequest, meta: { method: string; url: string }) => {
    const url = sameOrigin(xhr.responseURL || meta.url, win);
    if (!url || xhr.status === 0 || !isJsonContentType(Reflect.apply(getHeader, xhr, ['content-type']) as string | null)) return;
    if (xhr.responseType === '' || xhr.responseType === 'text') {
      const text = xhr.responseText;
      emit(record(url, meta.method, xhr.status, text.length > MAX_BODY_CHARS ? undefined : text, intrinsics));
    } else if (xhr.responseType === 'json') {
      const bounded = boundJson(xhr.response);
      emit({ url, method: meta.method, status: xhr.status, json: bounded.json, truncated: bounded.truncated });
    }
  };

  proto.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    try {
      requests.set(this, { method: methodOf(undefined, { method: args[0] }), url: String(args[1]) });
    } catch {
      // never disturb the page
    }
    return Reflect.apply(open, this, args);
  } as typeof proto.open;

  proto.send = function (this: XMLHttpRequest, ...args: unknown[]) {
    try {
      const meta = requests.get(this);
      if (meta) {
        const id = nextId();
        request({ phase: 'start', id, method: meta.method, url: redactUrl(meta.url, win.location.href) ?? '', kind: 'xhr' });
        Reflect.apply(addListener, this, [
          'loadend',
          () => {
            request({ phase: 'end', id, status: statusOf(this.status) });
            try {
              observe(this, meta);
            } catch {
              // a response we cannot read is simply not observed
            }
          },
        ]);
      }
    } catch {
      // never disturb the page
    }
    return Reflect.apply(send, this, args);
  } as typeof proto.send;
}

/** A beacon is fire-and-forget: it starts and is never answered to the page. */
function wrapBeacon(win: ObservableWindow, request: EmitRequest, nextId: () => number): void {
  const nav = win.navigator;
  const original = nav?.sendBeacon;
  if (!nav || typeof original !== 'function') return;
  nav.sendBeacon = function (this: unknown, url: string | URL, data?: BodyInit | null): boolean {
    const queued = Reflect.apply(original, this, [url, data]) as boolean;
    try {
      if (queued) request({ phase: 'start', id: nextId(), method: 'POST', url: redactUrl(String(url), win.location.href) ?? '', kind: 'beacon' });
    } catch {
      // never disturb the page
    }
    return queued;
  };
}

/** Installs the wrappers; `emit` receives each bounded, same-origin JSON response, `request` every request's start and end. */
export function installNetworkObserver(win: ObservableWindow, emit: EmitRecord, request: EmitRequest = () => undefined): void {
  const intrinsics = captureIntrinsics();
  const safeEmit: EmitRecord = (r) => {
    try {
      emit(r);
    } catch {
      // the port may be closed (page unloading)
    }
  };
  const safeRequest: EmitRequest = (r) => {
    try {
      request(r);
    } catch {
      // the port may be closed (page unloading)
    }
  };
  const nextId = requestIds();
  wrapFetch(win, safeEmit, intrinsics, safeRequest, nextId);
  wrapXhr(win, safeEmit, intrinsics, safeRequest, nextId);
  wrapBeacon(win, safeRequest, nextId);
}

/**
 * Sends records and request events over the private port once the isolated world has taken it;
 * until then keeps only the last few, so an unanswered handshake cannot make the page's memory grow.
 */
export function portSender(port: MessagePort, keepBeforeConnect = 32): { emit: EmitRecord; request: EmitRequest; connected: () => void } {
  const post = MessagePort.prototype.postMessage;
  let connected = false;
  const pending: PageChannelPush[] = [];
  const send = (push: PageChannelPush) => Reflect.apply(post, port, [push]);
  const queue = (push: PageChannelPush) => {
    if (connected) return send(push);
    pending.push(push);
    if (pending.length > keepBeforeConnect) pending.shift();
  };
  return {
    emit: (record) => queue({ type: 'network', record }),
    request: (request) => queue({ type: 'request', request }),
    connected() {
      connected = true;
      for (const p of pending.splice(0)) send(p);
    },
  };
}
