import type { SnapshotStructuredData } from '../../protocol/snapshot.ts';

/**
 * Parsing and bounding structured data a page declares (pure). A page chooses how deep, wide and
 * long its JSON-LD is; we keep a bounded copy and say when we cut.
 */

export interface JsonBounds {
  maxDepth: number;
  maxKeys: number;
  maxItems: number;
  maxString: number;
}

/** A bounded deep copy: plain data only, cut where a bound is hit (`truncated` says so). */
export function boundJson(value: unknown, b: JsonBounds): { value: unknown; truncated: boolean } {
  let truncated = false;
  const visit = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'string') {
      if (v.length <= b.maxString) return v;
      truncated = true;
      return `${v.slice(0, b.maxString - 1)}…`;
    }
    if (depth >= b.maxDepth) {
      truncated = true;
      return Array.isArray(v) ? [] : {};
    }
    if (Array.isArray(v)) {
      if (v.length > b.maxItems) truncated = true;
      return v.slice(0, b.maxItems).map((item) => visit(item, depth + 1));
    }
    if (typeof v === 'object') {
      const out: Record<string, unknown> = {};
      let n = 0;
      for (const key of Object.keys(v as object)) {
        // JSON.parse makes "__proto__" an own key; copied by assignment it would set the prototype.
        if (key === '__proto__') continue;
        if (n++ >= b.maxKeys) {
          truncated = true;
          break;
        }
        out[key] = visit((v as Record<string, unknown>)[key], depth + 1);
      }
      return out;
    }
    truncated = true;
    return null;
  };
  return { value: visit(value, 0), truncated };
}

/** The schema.org type of a JSON-LD node (`Order`, not `https://schema.org/Order`). */
function schemaType(node: Record<string, unknown>): string | undefined {
  const t = node['@type'];
  const first = Array.isArray(t) ? t[0] : t;
  if (typeof first !== 'string' || first === '') return undefined;
  return first.replace(/^https?:\/\/schema\.org\//i, '').slice(0, 128);
}

export type JsonLdResult = { items: SnapshotStructuredData[]; blindSpots: string[] };

/** One `<script type="application/ld+json">` block: its objects (a top-level array and `@graph` are spread). */
export function parseJsonLd(text: string, maxChars: number, b: JsonBounds): JsonLdResult {
  if (text.length > maxChars) return { items: [], blindSpots: ['json_ld_too_large'] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { items: [], blindSpots: ['json_ld_invalid'] };
  }
  const nodes: unknown[] = [];
  const spread = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(spread);
    else if (v && typeof v === 'object') {
      const graph = (v as Record<string, unknown>)['@graph'];
      if (Array.isArray(graph)) graph.forEach(spread);
      else nodes.push(v);
    }
  };
  spread(parsed);
  const blindSpots: string[] = [];
  const items: SnapshotStructuredData[] = [];
  for (const node of nodes.slice(0, b.maxItems)) {
    const { value, truncated } = boundJson(node, b);
    if (truncated && !blindSpots.includes('json_ld_truncated')) blindSpots.push('json_ld_truncated');
    const data = value as Record<string, unknown>;
    const type = schemaType(data);
    items.push(type ? { kind: 'json-ld', type, data } : { kind: 'json-ld', data });
  }
  return { items, blindSpots };
}
