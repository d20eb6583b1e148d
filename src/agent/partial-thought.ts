/**
 * The `thought` of a step reply that is still streaming in (`{"kind":"act","thought":"I will c…`):
 * the words the panel can show while the model writes. Pure and forgiving: the JSON is cut
 * anywhere, so the string is read up to where it stops, an escape cut in half left out.
 */

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The thought so far, or undefined while the reply has not reached it (or is not a JSON step). */
export function partialThought(reply: string): string | undefined {
  const key = /"thought"\s*:\s*"/.exec(reply);
  if (!key) return undefined;
  let out = '';
  for (let i = key.index + key[0].length; i < reply.length; i++) {
    const c = reply[i]!;
    if (c === '"') return out;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = reply[i + 1];
    if (next === undefined) return out;
    if (next === 'u') {
      const hex = reply.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return out;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i++;
  }
  return out;
}
