import { FORBIDDEN_KEYS } from '../protocol/forbidden-keys.ts';
import { judgePattern } from './safe-pattern.ts';

/**
 * Whether a page's JSON Schema is safe to evaluate in the service worker (security invariant 7).
 * Every place a page-supplied schema is compiled or evaluated asks this first: normalisation in the
 * content script, the service worker when a report arrives, and validateToolInput itself. Pure.
 *
 * Refused: regular expressions that can backtrack catastrophically (`pattern`, the keys of
 * `patternProperties`, and so `propertyNames` subschemas, see safe-pattern.ts); too many of them;
 * nesting deeper than MAX_SCHEMA_DEPTH; `$ref` other than local JSON pointers, `$ref` cycles, and
 * `$ref` chains that expand beyond MAX_EXPANDED_NODES (`anyOf` of refs of refs multiplies the work);
 * property names an input could never carry (`__proto__`, `constructor`, `prototype`).
 */

const MAX_SCHEMA_DEPTH = 32;
const MAX_SCHEMA_PATTERNS = 32;
const MAX_EXPANDED_NODES = 5_000;

export type SchemaSafety = { ok: true; patterns: number; exponent: number } | { ok: false; reason: string };

/** Keywords whose values are data, not subschemas: nothing in them is evaluated as a schema. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'description', 'title', '$comment']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const cache = new WeakMap<object, SchemaSafety>();

export function checkSchemaSafety(schema: Record<string, unknown>): SchemaSafety {
  const known = cache.get(schema);
  if (known) return known;
  const verdict = judge(schema);
  cache.set(schema, verdict);
  return verdict;
}

function judge(root: Record<string, unknown>): SchemaSafety {
  let patterns = 0;
  let exponent = 0;
  const refs: string[] = [];
  const pattern = (source: unknown, where: string): string | undefined => {
    if (typeof source !== 'string') return `${where}: pattern must be a string`;
    if (++patterns > MAX_SCHEMA_PATTERNS) return `more than ${MAX_SCHEMA_PATTERNS} patterns`;
    const verdict = judgePattern(source);
    if (!verdict.ok) return `${where}: ${verdict.reason}`;
    exponent = Math.max(exponent, verdict.exponent);
    return undefined;
  };

  const walk = (node: unknown, path: string, depth: number): string | undefined => {
    if (depth > MAX_SCHEMA_DEPTH) return `schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const problem = walk(node[i], `${path}/${i}`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key}`;
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern') {
        const problem = pattern(value, at);
        if (problem) return problem;
        continue;
      }
      if (key === 'format' && value === 'regex') continue; // compiles the input, never runs it
      if (key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') {
        if (typeof value !== 'string' || !(value === '#' || value.startsWith('#/'))) return `${at}: only local "#/…" references are accepted`;
        refs.push(value);
        continue;
      }
      if (key === 'patternProperties' && isObject(value)) {
        for (const source of Object.keys(value)) {
          const problem = pattern(source, `${at}/${source}`);
          if (problem) return problem;
        }
      }
      if ((key === 'properties' || key === 'dependentRequired' || key === 'dependentSchemas') && isObject(value)) {
        const bad = Object.keys(value).find((k) => FORBIDDEN_KEYS.has(k));
        if (bad) return `${at}: property name "${bad}" is not accepted`;
      }
      if (key === 'required' && Array.isArray(value)) {
        const bad = value.find((k) => typeof k === 'string' && FORBIDDEN_KEYS.has(k));
        if (bad) return `${at}: property name "${bad}" is not accepted`;
      }
      const problem = walk(value, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };

  const problem = walk(root, '#', 0) ?? (refs.length ? expansionProblem(root) : undefined);
  return problem ? { ok: false, reason: problem } : { ok: true, patterns, exponent: Math.max(exponent, 1) };
}

/** Resolves a local JSON pointer (`#/$defs/a`) in the schema. */
function resolve(root: unknown, ref: string): unknown {
  let node: unknown = root;
  if (ref === '#') return root;
  for (const raw of ref.slice(2).split('/')) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node) && Object.hasOwn(node, seg)) node = node[seg];
    else return undefined;
  }
  return node;
}

/**
 * How many schema nodes validation can visit for one instance once every `$ref` is followed:
 * a cycle, or more than MAX_EXPANDED_NODES, is refused.
 */
function expansionProblem(root: Record<string, unknown>): string | undefined {
  const sizes = new Map<unknown, number>();
  const visiting = new Set<unknown>();
  class Refused extends Error {}
  const size = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) throw new Refused('schema refers to itself ($ref cycle): recursive schemas are not accepted');
    visiting.add(node);
    let total = 1;
    for (const [key, value] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      if (typeof key === 'string' && DATA_KEYWORDS.has(key)) continue;
      if (key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') {
        const target = resolve(root, String(value));
        if (target === undefined) throw new Refused(`$ref ${JSON.stringify(value)} points nowhere`);
        total += size(target);
      } else total += size(value);
      if (total > MAX_EXPANDED_NODES) throw new Refused(`schema expands to more than ${MAX_EXPANDED_NODES} nodes once its $ref are followed`);
    }
    visiting.delete(node);
    sizes.set(node, total);
    return total;
  };
  try {
    size(root);
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
}
