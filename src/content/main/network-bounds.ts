/**
 * Bounds and redaction for observed network responses, applied in the main world before a
 * record leaves it and again in the isolated world (which cannot trust the main world). Pure:
 * no DOM, no chrome.*, so it runs in both worlds and in Node tests.
 */

/** Largest body read from a response (bytes / characters). Larger bodies are recorded as truncated, unread. */
export const MAX_BODY_CHARS = 64 * 1024;
/** Largest serialized record kept after pruning. */
const MAX_JSON_CHARS = 64 * 1024;

const MAX_DEPTH = 8;
const MAX_ARRAY = 100;
const MAX_KEYS = 100;
const MAX_STRING = 2048;
/** Upper bound on values visited, so a hostile payload cannot make pruning itself expensive. */
const MAX_NODES = 5_000;

/** Keys whose values are secrets wherever they appear (bodies, query strings). */
const SECRET = /pass(word|wd|phrase)?|secret|token|api[-_]?key|auth|bearer|session|cookie|csrf|xsrf|otp|ssn|card[-_]?number|cvv|cvc|iban|signature|^sig$|private[-_]?key|credential/i;

const REDACTED = '[redacted]';

function isSecretKey(key: string): boolean {
  return SECRET.test(key);
}

export interface Bounded {
  json: unknown;
  truncated: boolean;
}

/**
 * A copy of `value` with secrets redacted and depth, arrays, keys and strings capped. Only plain
 * JSON survives: anything else (functions, symbols, class instances' prototypes) is dropped.
 */
export function boundJson(value: unknown): Bounded {
  let nodes = 0;
  let truncated = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES) {
      truncated = true;
      return undefined;
    }
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'string') {
      if (v.length <= MAX_STRING) return v;
      truncated = true;
      return v.slice(0, MAX_STRING);
    }
    if (typeof v !== 'object') return undefined;
    if (depth >= MAX_DEPTH) {
      truncated = true;
      return null;
    }
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY) truncated = true;
      return v.slice(0, MAX_ARRAY).map((x) => walk(x, depth + 1) ?? null);
    }
    const out: Record<string, unknown> = {};
    const keys = Object.keys(v);
    if (keys.length > MAX_KEYS) truncated = true;
    for (const key of keys.slice(0, MAX_KEYS)) {
      if (key === '__proto__') continue;
      const inner = (v as Record<string, unknown>)[key];
      const bounded = isSecretKey(key) ? REDACTED : walk(inner, depth + 1);
      if (bounded !== undefined) out[key.slice(0, 200)] = bounded;
    }
    return out;
  };
  const json = walk(value, 0) ?? null;
  let size: number;
  try {
    size = JSON.stringify(json).length;
  } catch {
    return { json: null, truncated: true };
  }
  if (size > MAX_JSON_CHARS) return { json: null, truncated: true };
  return { json, truncated };
}

/** The URL without credentials or fragment, with secret-looking query values redacted. */
export function redactUrl(url: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url, base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.username = '';
  u.password = '';
  u.hash = '';
  for (const key of [...new Set(u.searchParams.keys())]) if (isSecretKey(key)) u.searchParams.set(key, 'redacted');
  return u.href.slice(0, 4096);
}

/** `application/json`, `application/ld+json`, `application/problem+json`, `text/json`. */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  return !!contentType && /^(?:application|text)\/(?:[\w.-]+\+)?json\b/i.test(contentType.trim());
}
