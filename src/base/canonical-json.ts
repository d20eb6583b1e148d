/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, arrays in order,
 * `undefined` members dropped (as JSON.stringify does). For JSON values this is RFC 8785 (JCS):
 * ECMAScript's number and string serialisation is what JCS specifies. Hashes of inputs and audit
 * entries are taken over this form, so the same value always hashes the same, whatever key order
 * the agent or the store produced.
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
