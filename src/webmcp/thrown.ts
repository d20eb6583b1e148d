import { PAGE_ERROR_CODE_MAX, PAGE_ERROR_MESSAGE_MAX, type PageToolError } from '../protocol/page-tool-error.ts';

/**
 * Turns whatever a page's tool threw — an Error, a `{code, message}` object, a string, a number,
 * a megabyte of text, an object whose getters throw — into a bounded PageToolError. Reads each
 * property once, inside try: the value is the page's and may fight back.
 */

const GENERIC_NAMES = new Set(['Error', 'UnknownError']);

/** `out-of-stock`, `outOfStock`, `RangeError` → `OUT_OF_STOCK`, `OUT_OF_STOCK`, `RANGE_ERROR`; anything that does not fit is no code. */
export function toErrorCode(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const code = String(value)
    .slice(0, PAGE_ERROR_CODE_MAX * 2)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, PAGE_ERROR_CODE_MAX)
    .replace(/_+$/, '');
  return /^[A-Z0-9][A-Z0-9_]*$/.test(code) ? code : undefined;
}

/** Control characters (but tab and newline) and bidi overrides: they could disguise what the page says. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters out (newlines and tabs stay), then at most PAGE_ERROR_MESSAGE_MAX characters. */
export function boundMessage(text: string): { message: string; truncated: boolean } {
  // Only the part that can be shown is cleaned: a megabyte message costs no more than a short one.
  const head = text.slice(0, PAGE_ERROR_MESSAGE_MAX * 4).replace(UNSHOWABLE, ' ');
  const trimmed = head.trim();
  if (trimmed.length <= PAGE_ERROR_MESSAGE_MAX && text.length <= PAGE_ERROR_MESSAGE_MAX * 4) return { message: trimmed, truncated: false };
  return { message: `${trimmed.slice(0, PAGE_ERROR_MESSAGE_MAX)}…`, truncated: true };
}

function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function stringify(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return json;
  } catch {
    // a cyclic or hostile object
  }
  try {
    return String(value);
  } catch {
    return '(a value that cannot be shown)';
  }
}

/** The value's own code; a DOMException's numeric `code` is the legacy constant, not the page's. */
function ownCode(value: object): unknown {
  const code = read(value, 'code');
  return typeof code === 'number' && typeof DOMException !== 'undefined' && value instanceof DOMException ? undefined : code;
}

export function describeThrown(value: unknown): PageToolError {
  let code: string | undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value !== null && typeof value === 'object') {
    const message = read(value, 'message');
    const name = read(value, 'name');
    code = toErrorCode(ownCode(value)) ?? (typeof name === 'string' && !GENERIC_NAMES.has(name) ? toErrorCode(name) : undefined);
    text = typeof message === 'string' && message.trim() !== '' ? message : stringify(value);
  } else text = value === undefined ? 'undefined' : stringify(value);
  const bounded = boundMessage(text);
  return { ...(code ? { code } : {}), message: bounded.message || '(no message)', truncated: bounded.truncated, untrusted: true };
}

/** A PageToolError as one line for the person or an agent, marked as the page's words. */
export function quotePageError(error: PageToolError): string {
  return `${error.code ? `[${error.code}] ` : ''}“${error.message}”${error.truncated ? ' (cut short)' : ''}`;
}
