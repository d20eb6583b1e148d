/** The origin of an http(s) URL; undefined for anything else (chrome://, file:, about:blank, javascript:, junk). */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
