import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError, type TomlTable } from 'smol-toml';
import type { ServerEntry } from './clients.ts';
import type { Merge } from './json-config.ts';

/**
 * One `[<container>.<name>]` table set in a TOML config (Codex's config.toml), everything else kept
 * byte for byte: the old table (and its sub-tables) is cut out by its header lines and ours is put
 * in its place, or at the end. The file is parsed before (a file that is not valid TOML is refused)
 * and after: unless every other setting parses back exactly as it was and ours reads as written,
 * the edit is refused and the file left alone (for instance when the table is defined inline or
 * with dotted keys, which this editor does not rewrite).
 */

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

const key = (k: string) => (BARE_KEY.test(k) ? k : basicString(k));

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** A TOML basic string: quotes, backslashes and control characters escaped. */
function basicString(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    out += ESCAPES[c] ?? (code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : c);
  }
  return `${out}"`;
}

function value(v: ServerEntry[string]): string {
  if (typeof v === 'string') return basicString(v);
  if (Array.isArray(v)) return `[${v.map(basicString).join(', ')}]`;
  const pairs = Object.entries(v).map(([k, s]) => `${key(k)} = ${basicString(s)}`);
  return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
}

/** The table as TOML text: strings, arrays of strings and inline tables of strings (all an MCP server entry holds). */
export function tomlTable(container: string, name: string, entry: ServerEntry): string {
  const lines = Object.entries(entry).map(([k, v]) => `${key(k)} = ${value(v)}`);
  return `[${key(container)}.${key(name)}]\n${lines.join('\n')}\n`;
}

/** Parsed, as plain objects (smol-toml's tables have no prototype), so two parses compare with isDeepStrictEqual. */
export const parseToml = (text: string): TomlTable => structuredClone(parse(text, { integersAsBigInt: 'asNeeded' }));

/** A header line of any table or array of tables. */
const HEADER = /^\s*\[\[?[^[\]]*\]\]?\s*(?:#.*)?$/;

function quotedOrBare(k: string): string {
  const escaped = k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(?:${escaped}|"${escaped}"|'${escaped}')`;
}

/** The document less our table; an emptied (or empty) container goes too, so a file that had none compares equal. */
function withoutTable(table: TomlTable, container: string, name: string): TomlTable {
  const servers = table[container];
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers) || servers instanceof Date) return table;
  const { [name]: _dropped, ...rest } = servers as TomlTable;
  const { [container]: _servers, ...others } = table;
  return Object.keys(rest).length > 0 ? { ...others, [container]: rest } : others;
}

export function mergeToml(existing: string | undefined, container: string, name: string, entry: ServerEntry): Merge {
  const text = existing ?? '';
  let before: TomlTable;
  try {
    before = parseToml(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : '';
    return { ok: false, problem: `it is not valid TOML${where}: ${(error as Error).message.split('\n')[0]}` };
  }

  // Our table's header, and its sub-tables' (`[mcp_servers.steward.env]`), however its keys are quoted.
  const ours = new RegExp(`^\\s*\\[\\s*${quotedOrBare(container)}\\s*\\.\\s*${quotedOrBare(name)}\\s*(?:\\.[^\\]]*)?\\]\\s*(?:#.*)?$`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const kept: string[] = [];
  let at = -1;
  let skipping = false;
  for (const line of lines) {
    if (HEADER.test(line)) skipping = ours.test(line);
    if (skipping) {
      if (at < 0) at = kept.length;
      continue;
    }
    kept.push(line);
  }
  const table = tomlTable(container, name, entry).trimEnd().split('\n');
  // Ours goes where the old one was (else at the end), one blank line either side.
  const head = kept.slice(0, at < 0 ? kept.length : at);
  const tail = at < 0 ? [] : kept.slice(at);
  while (head.length > 0 && head[head.length - 1]!.trim() === '') head.pop();
  while (tail.length > 0 && tail[0]!.trim() === '') tail.shift();
  const merged = [...head, ...(head.length > 0 ? [''] : []), ...table, '', ...tail].join(eol);

  let after: TomlTable;
  try {
    after = parseToml(merged);
  } catch {
    return { ok: false, problem: `it defines "${container}" in a way this command does not edit (an inline table or dotted keys); add the [${container}.${name}] table by hand` };
  }
  const written = (after[container] as TomlTable | undefined)?.[name];
  if (!isDeepStrictEqual(withoutTable(after, container, name), withoutTable(before, container, name)) || !isDeepStrictEqual(written, entry)) {
    return {
      ok: false,
      problem: `it defines [${container}.${name}] in a way this command does not edit (inline, with dotted keys, or across other tables); remove that definition and run this again`,
    };
  }
  return { ok: true, text: merged };
}
