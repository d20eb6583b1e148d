/**
 * The target of a link whose raw `href` is a plain absolute path (`/grid/users/USR-00042`), without
 * the URL parser (pure). `a.href` parses and serialises a URL on every read, about ten microseconds
 * on a cold content script: an admin table's hundreds of links, all different, paid that on the
 * first observation. For such a path on an http(s) base without credentials, the URL parser gives
 * the base's origin followed by the path unchanged: its characters are never percent-encoded and it
 * has no dot segments to remove. Anything else is left to the browser (undefined).
 */

/** `/`, then no second `/` at once (that would be a host), then only characters a path keeps as they are. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~/]*$/;
/** A `.` or `..` segment, which the parser removes. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** What a plain path is appended to for this base URL: its origin (http and https, no user or password), else undefined. */
export function plainPathPrefix(base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return undefined;
  return url.origin;
}

/** `raw` resolved against the base `prefix` came from (plainPathPrefix), when it is a plain absolute path. */
export function plainPathTarget(raw: string, prefix: string | undefined): string | undefined {
  if (prefix === undefined || !PLAIN_PATH.test(raw) || DOT_SEGMENT.test(raw)) return undefined;
  return prefix + raw;
}
