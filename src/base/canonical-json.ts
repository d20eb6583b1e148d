/**
 * The one canonical JSON: RFC 8785 (JSON Canonicalization Scheme). Object keys sorted by UTF-16
 * code units, no whitespace, arrays in order, ECMAScript number and string serialisation (which is
 * what JCS specifies). Strict: a value JSON cannot carry exactly (NaN, Infinity, BigInt, a
 * function or symbol in place of a value, nesting deeper than 256) throws instead of turning into
 * something else, because two different values must never hash alike. As JSON.stringify does,
 * `undefined` object members are dropped and `toJSON` is honoured.
 *
 * Why JCS: input hashes, idempotency keys, the audit chain and observation fingerprints are taken
 * over this form, so the same value always hashes the same whatever key order the agent, the page
 * or the store produced, and anyone outside Steward can recompute an audit hash with an
 * off-the-shelf JCS library.
 */
export function canonicalJson(value: unknown): string {
  return serialise(value, 0);
}

const MAX_DEPTH = 256;

function serialise(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new TypeError('canonicalJson: value is nested too deeply');
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
  if (Array.isArray(value)) {
    // JSON.stringify turns holes and undefined items into null; so do we.
    return `[${Array.from(value, (item) => (item === undefined ? 'null' : serialise(item, depth + 1))).join(',')}]`;
  }
  const obj = value as Record<string, unknown>;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
    return serialise((obj as { toJSON: () => unknown }).toJSON(), depth + 1);
  }
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${serialise(v, depth + 1)}`);
  }
  return `{${parts.join(',')}}`;
}
