/**
 * HTTP `Link` header (RFC 8288), parsed strictly: `<uri>; param=value; param="quoted"`, links
 * separated by commas. A header that does not parse yields no links at all (a mangled header is
 * not guessed at), only the first `rel` of a link counts, and a link with an `anchor` is about
 * another resource, so it is left out.
 */

export interface HeaderLink {
  /** The URI reference as written (resolve it against the response's URL). */
  href: string;
  /** Relation types, lower-cased. */
  rels: string[];
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const MAX_HEADER_LENGTH = 16 * 1024;

export function parseLinkHeader(header: string): HeaderLink[] {
  if (header.length > MAX_HEADER_LENGTH) return [];
  const links: HeaderLink[] = [];
  let i = 0;
  const skipSpace = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  const token = (): string => {
    const start = i;
    while (i < header.length && TOKEN_CHAR.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  const quoted = (): string | undefined => {
    i++; // opening quote
    let value = '';
    while (i < header.length) {
      const c = header[i++]!;
      if (c === '"') return value;
      if (c === '\\') {
        if (i >= header.length) return undefined;
        value += header[i++]!;
      } else value += c;
    }
    return undefined;
  };

  while (i < header.length) {
    skipSpace();
    if (header[i] === ',') {
      i++;
      continue;
    }
    if (i >= header.length) break;
    if (header[i] !== '<') return [];
    const close = header.indexOf('>', i);
    if (close < 0) return [];
    const href = header.slice(i + 1, close).trim();
    i = close + 1;
    const params = new Map<string, string>();
    for (;;) {
      skipSpace();
      if (header[i] !== ';') break;
      i++;
      skipSpace();
      const name = token().toLowerCase();
      if (name === '') return [];
      skipSpace();
      let value = '';
      if (header[i] === '=') {
        i++;
        skipSpace();
        const v = header[i] === '"' ? quoted() : token();
        if (v === undefined) return [];
        value = v;
      }
      if (!params.has(name)) params.set(name, value);
    }
    skipSpace();
    if (i < header.length && header[i] !== ',') return [];
    if (params.has('anchor')) continue;
    const rels = (params.get('rel') ?? '')
      .toLowerCase()
      .split(/[ \t]+/)
      .filter((r) => r !== '');
    links.push({ href, rels });
  }
  return links;
}
