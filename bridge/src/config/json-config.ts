/**
 * One server entry set in a client's JSON config, everything else kept: the file is parsed, one
 * key (`<container>.<name>`) is set, and the document is written back with the file's own
 * indentation. A file that is not plain JSON (comments, trailing commas) is refused rather than
 * rewritten without them.
 */

export type Merge = { ok: true; text: string } | { ok: false; problem: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The indentation the file uses (its first indented line), else two spaces. */
function indentOf(text: string): string | number {
  const indent = /^[{[][^\n]*\n([ \t]+)\S/.exec(text)?.[1];
  return indent ?? 2;
}

/** The snippet to paste: `{ "<container>": { "<name>": entry } }`. */
export function jsonSnippet(container: string, name: string, entry: unknown): string {
  return `${JSON.stringify({ [container]: { [name]: entry } }, null, 2)}\n`;
}

/** `existing` (undefined: no file yet) with `<container>.<name>` set to `entry`. */
export function mergeJson(existing: string | undefined, container: string, name: string, entry: unknown): Merge {
  const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = (existing ?? '').slice(bom.length);
  let doc: unknown = {};
  if (body.trim() !== '') {
    try {
      doc = JSON.parse(body);
    } catch (error) {
      return { ok: false, problem: `it is not valid JSON (${(error as Error).message}; comments and trailing commas count as invalid here, since rewriting the file would drop them)` };
    }
  }
  if (!isPlainObject(doc)) return { ok: false, problem: 'it holds JSON, but not an object at the top' };
  const servers = doc[container] ?? {};
  if (!isPlainObject(servers)) return { ok: false, problem: `its "${container}" is not an object` };
  const updated = { ...doc, [container]: { ...servers, [name]: entry } };
  const trailingNewline = existing === undefined || existing.endsWith('\n') ? '\n' : '';
  return { ok: true, text: `${bom}${JSON.stringify(updated, null, indentOf(body))}${trailingNewline}` };
}
