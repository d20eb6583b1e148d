import { FORBIDDEN_KEYS } from './forbidden-keys.ts';
import type { ObserveReplyData } from './messages.ts';

/**
 * Long lists of like objects (a snapshot's elements and texts) as rows of values under shared
 * key lists, for the trip from a page to the service worker (pure). Extension messaging's cost
 * grows faster than the text it carries (a 16k-element page's first snapshot was 1.1 MB of JSON
 * and about 150 ms on the way); most of those bytes were the same keys and the same values again.
 *
 * `{ "$rows": [shapes, rows] }`: `shapes` are key lists (a key `box.x` is field `x` of the plain
 * object under `box`, so boxes and row places need no braces of their own); each row is
 * `[shape, repeats, ...values]`, where bit i of `repeats` says column i holds the same value as
 * the previous row of that shape (a string, number, boolean or null, or a short list of them:
 * roles, tags, states, visibility, options). Unpacking gives back exactly the objects that
 * JSON.parse of the plain list would give, keys in the same order; the worker then validates
 * them as before. It refuses anything malformed (a page is hostile) instead of guessing.
 */

export type PackedRows = { $rows: [shapes: string[][], rows: unknown[][]] };

/** Columns past this are never marked as repeats (the mask stays a small integer). */
const MASK_COLUMNS = 30;
/** Lists longer than this are never repeats (unpacking copies a repeated list). */
const MAX_REPEATED_LIST = 64;
const MAX_SHAPES = 4_096;
/** An element has about 35 columns; a wider shape travels as a plain list. */
const MAX_COLUMNS = 64;
/**
 * What repeats may stand for in one list, in characters of repeated strings and items of repeated
 * lists: a few bytes of repeats must not become gigabytes for the schema to check (a page is hostile).
 * Far above what a real list repeats (a 50k-element page: about 4 M).
 */
const MAX_REPEATED = 16_000_000;
const MAX_KEY = 256;
/** Shorter lists travel as they are (the shapes would cost more than they save). */
const MIN_PACKED = 4;

interface ShapeNode {
  next: Map<string, ShapeNode>;
  shape: number;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b && (a === null || typeof a !== 'object')) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || a.length > MAX_REPEATED_LIST) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x !== b[i] || (typeof x === 'object' && x !== null)) return false;
  }
  return true;
}

const nestedKeys = new Map<string, Map<string, string>>();
/** `top.sub`, made once (thousands of boxes share four). */
function nestedKey(top: string, sub: string): string {
  let subs = nestedKeys.get(top);
  if (!subs) nestedKeys.set(top, (subs = new Map()));
  let key = subs.get(sub);
  if (key === undefined) {
    key = `${top}.${sub}`;
    if (subs.size < 64) subs.set(sub, key);
  }
  return key;
}

/**
 * Packs a list of plain objects (JSON data: what JSON.stringify drops, undefined, is left out
 * here too). Returns the list itself when it cannot be packed faithfully (a key with a dot).
 */
export function packRows(list: readonly object[]): PackedRows | readonly object[] {
  if (list.length < MIN_PACKED) return list;
  const shapes: string[][] = [];
  const rows: unknown[][] = new Array(list.length);
  const previous: unknown[][] = [];
  const trie: ShapeNode = { next: new Map(), shape: -1 };
  const keys: string[] = [];
  const values: unknown[] = [];
  for (let r = 0; r < list.length; r++) {
    const item = list[r] as Record<string, unknown>;
    keys.length = 0;
    values.length = 0;
    for (const key in item) {
      const value = item[key];
      if (value === undefined) continue;
      if (key.includes('.')) return list;
      const width = keys.length;
      if (isPlainObject(value)) {
        for (const sub in value) {
          const v = value[sub];
          if (v === undefined) continue;
          keys.push(nestedKey(key, sub));
          values.push(v);
        }
      }
      if (keys.length === width) {
        keys.push(key);
        values.push(value);
      }
    }
    let node = trie;
    for (let i = 0; i < keys.length; i++) {
      let next = node.next.get(keys[i]!);
      if (!next) node.next.set(keys[i]!, (next = { next: new Map(), shape: -1 }));
      node = next;
    }
    if (node.shape < 0) {
      if (shapes.length >= MAX_SHAPES || keys.length > MAX_COLUMNS) return list;
      node.shape = shapes.length;
      shapes.push(keys.slice());
      previous.push([]);
    }
    const before = previous[node.shape]!;
    const row: unknown[] = [node.shape, 0];
    let mask = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (i < MASK_COLUMNS && before.length > 0 && sameValue(v, before[i])) mask |= 1 << i;
      else row.push(v);
    }
    row[1] = mask;
    previous[node.shape] = values.slice();
    rows[r] = row;
  }
  return { $rows: [shapes, rows] };
}

export class PackedRowsError extends Error {}

const fail = (why: string): never => {
  throw new PackedRowsError(why);
};

function checkedShapes(raw: unknown): Array<Array<[top: string, sub: string | undefined]>> {
  if (!Array.isArray(raw) || raw.length > MAX_SHAPES) return fail('shapes');
  return raw.map((shape: unknown) => {
    if (!Array.isArray(shape) || shape.length > MAX_COLUMNS) return fail('shape');
    const seen = new Set<string>();
    const plain = new Set<string>();
    const nested = new Set<string>();
    return shape.map((key: unknown): [string, string | undefined] => {
      if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY || seen.has(key)) return fail('key');
      seen.add(key);
      const dot = key.indexOf('.');
      const top = dot < 0 ? key : key.slice(0, dot);
      const sub = dot < 0 ? undefined : key.slice(dot + 1);
      if (FORBIDDEN_KEYS.has(top) || (sub !== undefined && FORBIDDEN_KEYS.has(sub))) fail('forbidden key');
      // A top-level key is either one value or one nested object, never both.
      if (sub === undefined ? nested.has(top) : plain.has(top)) fail('key twice');
      (sub === undefined ? plain : nested).add(top);
      return [top, sub];
    });
  });
}

const bitCount = (n: number): number => {
  let c = 0;
  for (let m = n; m !== 0; m &= m - 1) c++;
  return c;
};

/**
 * The objects a packed list stands for; a value that is not packed (a plain list, or anything
 * else) is returned as it is, for the schema to judge. Throws PackedRowsError when a packed list
 * is malformed or longer than `maxRows`.
 */
export function unpackRows(value: unknown, maxRows: number): unknown {
  if (!isPlainObject(value) || !Object.hasOwn(value, '$rows')) return value;
  const body = value.$rows;
  if (Object.keys(value).length !== 1 || !Array.isArray(body) || body.length !== 2) return fail('packed rows');
  const shapes = checkedShapes(body[0]);
  const rows = body[1];
  if (!Array.isArray(rows) || rows.length > maxRows) return fail('rows');
  const previous: unknown[][] = [];
  const out: Record<string, unknown>[] = new Array(rows.length);
  let repeated = 0;
  for (let r = 0; r < rows.length; r++) {
    const row: unknown = rows[r];
    if (!Array.isArray(row) || row.length < 2) return fail('row');
    const shapeIndex = row[0];
    const mask = row[1];
    if (typeof shapeIndex !== 'number' || !Number.isInteger(shapeIndex) || shapeIndex < 0 || shapeIndex >= shapes.length) return fail('row shape');
    const shape = shapes[shapeIndex]!;
    const maskable = Math.min(shape.length, MASK_COLUMNS);
    if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < 0 || mask >= 2 ** maskable) return fail('row repeats');
    const before = previous[shapeIndex];
    if (mask !== 0 && !before) return fail('repeat without a row before');
    if (row.length !== 2 + shape.length - bitCount(mask)) return fail('row length');
    const values: unknown[] = new Array(shape.length);
    const item: Record<string, unknown> = {};
    let at = 2;
    for (let i = 0; i < shape.length; i++) {
      let v: unknown;
      if (mask & (1 << i)) {
        v = before![i];
        if (Array.isArray(v)) {
          // Only short lists of plain values repeat; each object gets its own copy.
          if (v.length > MAX_REPEATED_LIST || v.some((x) => typeof x === 'object' && x !== null)) return fail('repeated list');
          repeated += v.length;
          v = v.slice();
        } else if (typeof v === 'object' && v !== null) return fail('repeated object');
        else if (typeof v === 'string') repeated += v.length;
        if (repeated > MAX_REPEATED) return fail('too much repeated');
      } else v = row[at++];
      values[i] = v;
      const [top, sub] = shape[i]!;
      if (sub === undefined) item[top] = v;
      else {
        // Own properties only: `toString.x` must not reach Object.prototype.toString.
        if (!Object.hasOwn(item, top)) item[top] = {};
        (item[top] as Record<string, unknown>)[sub] = v;
      }
    }
    previous[shapeIndex] = values;
    out[r] = item;
  }
  return out;
}

/** Where an observation reply's long lists are, and how long each may be (ObserveReplyData). */
const PACKED_IN_FULL = { elements: 50_000, texts: 5_000 } as const;
const PACKED_IN_DELTA = { changed: 50_000, patches: 50_000, texts: 5_000 } as const;

function mapLists(holder: unknown, lists: Readonly<Record<string, number>>, map: (list: unknown, max: number) => unknown): void {
  if (!isPlainObject(holder)) return;
  for (const [key, max] of Object.entries(lists)) if (Object.hasOwn(holder, key) && holder[key] !== undefined) holder[key] = map(holder[key], max);
}

/** The reply as it travels: its long lists packed (a shallow copy: the snapshot itself is not changed). */
export function packObserveReply(data: ObserveReplyData): unknown {
  const pack = (list: unknown) => packRows(list as object[]);
  if (data.kind === 'full') {
    const snapshot = { ...data.snapshot };
    mapLists(snapshot, PACKED_IN_FULL, pack);
    return { ...data, snapshot };
  }
  const delta = { ...data.delta };
  mapLists(delta, PACKED_IN_DELTA, pack);
  return { ...data, delta };
}

/** A parsed reply with its packed lists unpacked in place, for the schema to judge; throws PackedRowsError when one is malformed. */
export function unpackObserveReply(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  if (raw.kind === 'full') mapLists(raw.snapshot, PACKED_IN_FULL, unpackRows);
  else if (raw.kind === 'delta') mapLists(raw.delta, PACKED_IN_DELTA, unpackRows);
  return raw;
}
