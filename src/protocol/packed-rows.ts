import { FORBIDDEN_KEYS } from './forbidden-keys.ts';
import type { ColumnChecks } from './fast-check.ts';
import type { ObserveReplyData } from './messages.ts';

/**
 * Long lists of like objects (a snapshot's elements and texts) as rows of values under shared
 * key lists, for the trip from a page to the service worker (pure). Extension messaging's cost
 * grows faster than the text it carries (a 16k-element page's first snapshot was 1.1 MB of JSON
 * and about 150 ms on the way); most of those bytes were the same keys and the same values again.
 *
 * `{ "$rows": [shapes, rows] }`: `shapes` are key lists (a key `box.x` is field `x` of the plain
 * object under `box`, so boxes and row places need no braces of their own); each row is
 * `[shape, marks, ...values]`. Bit i of `marks` (i < 30) says column i holds the same value as
 * the previous row of that shape (a string, number, boolean or null, or a short list of them:
 * roles, tags, states, visibility, options); bit 30 + i (i < 20) says its string starts like the
 * previous row's: its values are then [how many characters, the rest] (`Select USR-00002` after
 * `Select USR-00001` is [15, "2"]; a link's address after its neighbour's). Unpacking gives back
 * exactly the objects that JSON.parse of the plain list would give, keys in the same order; the
 * worker then validates them as before. It refuses anything malformed (a page is hostile)
 * instead of guessing, and bounds what repeats and shared starts may expand to.
 */

type PackedRows = { $rows: [shapes: string[][], rows: unknown[][]] };

/** Columns past this are never marked as repeats (bits 0-29 of a row's marks). */
const MASK_COLUMNS = 30;
/** Columns past this never start like the row before (bits 30-49: the marks stay an exact integer). */
const PREFIX_COLUMNS = 20;
const PREFIX_BIT = 2 ** MASK_COLUMNS;
/** The shortest shared start worth a number of its own. */
const MIN_PREFIX = 6;
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

/** How many characters `a` shares at its start with `b` (a string), never ending inside a surrogate pair. */
function sharedStart(a: string, b: unknown): number {
  if (typeof b !== 'string') return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < a.length && (a.charCodeAt(i - 1) & 0xfc00) === 0xd800) i--;
  return i;
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
  /** Per shape: the values of its last row (overwritten in place, row after row). */
  const previous: unknown[][] = [];
  /** Shapes by their keys: each row walks it key by key as it lists them (no comparison of key lists). */
  const trie: ShapeNode = { next: new Map(), shape: -1 };
  const keys: string[] = [];
  const values: unknown[] = [];
  const row: unknown[] = [];
  for (let r = 0; r < list.length; r++) {
    const item = list[r] as Record<string, unknown>;
    keys.length = 0;
    values.length = 0;
    let node = trie;
    for (const key in item) {
      const value = item[key];
      if (value === undefined) continue;
      if (key.includes('.')) return list;
      const width = keys.length;
      if (isPlainObject(value)) {
        for (const sub in value) {
          const v = value[sub];
          if (v === undefined) continue;
          const nested = nestedKey(key, sub);
          keys.push(nested);
          values.push(v);
          node = child(node, nested);
        }
      }
      if (keys.length === width) {
        keys.push(key);
        values.push(value);
        node = child(node, key);
      }
    }
    let shape = node.shape;
    if (shape < 0) {
      if (shapes.length >= MAX_SHAPES || keys.length > MAX_COLUMNS) return list;
      shape = shapes.length;
      node.shape = shape;
      shapes.push(keys.slice());
      previous.push([]);
    }
    const before = previous[shape]!;
    const first = before.length === 0;
    row.length = 0;
    row.push(shape, 0);
    let mask = 0;
    let prefixes = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!first && i < MASK_COLUMNS && sameValue(v, before[i])) mask |= 1 << i;
      else {
        const shared = !first && i < PREFIX_COLUMNS && typeof v === 'string' ? sharedStart(v, before[i]) : 0;
        if (shared >= MIN_PREFIX) {
          prefixes += 2 ** i;
          row.push(shared, (v as string).slice(shared));
        } else row.push(v);
      }
      before[i] = v;
    }
    row[1] = mask + prefixes * PREFIX_BIT;
    rows[r] = row.slice();
  }
  return { $rows: [shapes, rows] };
}

/** The trie node after `node` for one more key (made the first time a row lists it). */
function child(node: ShapeNode, key: string): ShapeNode {
  let next = node.next.get(key);
  if (next === undefined) {
    next = { next: new Map(), shape: -1 };
    node.next.set(key, next);
  }
  return next;
}

export class PackedRowsError extends Error {}

const fail = (why: string): never => {
  throw new PackedRowsError(why);
};

/** A shape as unpacking uses it. */
interface Shape {
  /** The keys as sent (`box.x` for field `x` of `box`). */
  keys: string[];
  /** Column i's key, and its field when the key holds a nested object. */
  tops: string[];
  subs: Array<string | undefined>;
  /** The shape's keys in order, nested objects too, cloned for each row (rows then share one object layout). */
  template: Record<string, unknown>;
  nested: Array<[key: string, template: Record<string, unknown>]>;
  /** Marks must stay below these (columns the shape has). */
  repeatLimit: number;
  prefixLimit: number;
}

function checkedShapes(raw: unknown): Shape[] {
  if (!Array.isArray(raw) || raw.length > MAX_SHAPES) return fail('shapes');
  return raw.map((keys: unknown): Shape => {
    if (!Array.isArray(keys) || keys.length > MAX_COLUMNS) return fail('shape');
    const shape: Shape = {
      keys: keys as string[],
      tops: [],
      subs: [],
      template: {},
      nested: [],
      repeatLimit: 2 ** Math.min(keys.length, MASK_COLUMNS),
      prefixLimit: 2 ** Math.min(keys.length, PREFIX_COLUMNS),
    };
    const seen = new Set<string>();
    const nested = new Map<string, Record<string, unknown>>();
    for (const key of keys as unknown[]) {
      if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY || seen.has(key)) return fail('key');
      seen.add(key);
      const dot = key.indexOf('.');
      const top = dot < 0 ? key : key.slice(0, dot);
      const sub = dot < 0 ? undefined : key.slice(dot + 1);
      if (FORBIDDEN_KEYS.has(top) || (sub !== undefined && FORBIDDEN_KEYS.has(sub))) return fail('forbidden key');
      // A top-level key is either one value or one nested object, never both.
      if (sub === undefined ? nested.has(top) : Object.hasOwn(shape.template, top) && !nested.has(top)) return fail('key twice');
      if (sub === undefined) shape.template[top] = null;
      else {
        let inner = nested.get(top);
        if (!inner) {
          nested.set(top, (inner = {}));
          shape.template[top] = null;
          shape.nested.push([top, inner]);
        }
        inner[sub] = null;
      }
      shape.tops.push(top);
      shape.subs.push(sub);
    }
    return shape;
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
 * is malformed or longer than `maxRows`. With `checks` (the item schema's, see
 * compileColumnChecks), each value is checked as it is unpacked — one that repeats the row before
 * needs none — and a list whose every value passed is vouched for.
 */
export function unpackRows(value: unknown, maxRows: number, checks?: ColumnChecks): unknown {
  if (!isPlainObject(value) || !Object.hasOwn(value, '$rows')) return value;
  const body = value.$rows;
  if (Object.keys(value).length !== 1 || !Array.isArray(body) || body.length !== 2) return fail('packed rows');
  const shapes = checkedShapes(body[0]);
  const rows = body[1];
  if (!Array.isArray(rows) || rows.length > maxRows) return fail('rows');
  /** Per shape: the values of its last row (overwritten in place, row after row). */
  const previous: unknown[][] = shapes.map(() => []);
  /** Per shape: its columns' checks, while every value so far passed (undefined: the list is the schema's to judge). */
  let columnChecks: Array<FastCheckList | undefined> | undefined = checks ? shapes.map((shape) => checks.columns(shape.keys)) : undefined;
  if (columnChecks?.some((c) => c === undefined)) columnChecks = undefined;
  const out: Record<string, unknown>[] = new Array(rows.length);
  let repeated = 0;
  for (let r = 0; r < rows.length; r++) {
    const row: unknown = rows[r];
    if (!Array.isArray(row) || row.length < 2) return fail('row');
    const shapeIndex = row[0];
    const marks = row[1];
    if (typeof shapeIndex !== 'number' || !Number.isInteger(shapeIndex) || shapeIndex < 0 || shapeIndex >= shapes.length) return fail('row shape');
    const shape = shapes[shapeIndex]!;
    if (typeof marks !== 'number' || !Number.isSafeInteger(marks) || marks < 0) return fail('row marks');
    const prefixes = Math.floor(marks / PREFIX_BIT);
    const mask = marks - prefixes * PREFIX_BIT;
    if (mask >= shape.repeatLimit || prefixes >= shape.prefixLimit || (mask & prefixes) !== 0) return fail('row marks');
    const before = previous[shapeIndex]!;
    const n = shape.tops.length;
    if (marks !== 0 && before.length === 0) return fail('a mark with no row before');
    if (row.length !== 2 + n - bitCount(mask) + bitCount(prefixes)) return fail('row length');
    const item = { ...shape.template };
    for (let k = 0; k < shape.nested.length; k++) item[shape.nested[k]![0]] = { ...shape.nested[k]![1] };
    let at = 2;
    for (let i = 0; i < n; i++) {
      let v: unknown;
      if (mask & (1 << i)) {
        v = before[i];
        if (Array.isArray(v)) {
          // Only short lists of plain values repeat; each object gets its own copy.
          if (v.length > MAX_REPEATED_LIST || v.some((x) => typeof x === 'object' && x !== null)) return fail('repeated list');
          repeated += v.length;
          v = v.slice();
        } else if (typeof v === 'object' && v !== null) return fail('repeated object');
        else if (typeof v === 'string') repeated += v.length;
        if (repeated > MAX_REPEATED) return fail('too much repeated');
      } else if (prefixes & (1 << i)) {
        const shared = row[at++];
        const rest = row[at++];
        const was = before[i];
        if (typeof was !== 'string' || typeof rest !== 'string' || typeof shared !== 'number' || !Number.isInteger(shared) || shared < 1 || shared > was.length) return fail('shared start');
        repeated += shared;
        if (repeated > MAX_REPEATED) return fail('too much repeated');
        v = was.slice(0, shared) + rest;
      } else v = row[at++];
      // A repeat is the value the row before had in this column, checked then (a list repeats as a copy of it).
      if (columnChecks !== undefined && (mask & (1 << i)) === 0 && !passes(columnChecks[shapeIndex]![i]!, v)) columnChecks = undefined;
      before[i] = v;
      const sub = shape.subs[i];
      if (sub === undefined) item[shape.tops[i]!] = v;
      else (item[shape.tops[i]!] as Record<string, unknown>)[sub] = v;
    }
    out[r] = item;
  }
  if (columnChecks !== undefined) checks!.vouch(out);
  return out;
}

type FastCheckList = ReadonlyArray<(value: unknown) => boolean>;

/** A column check's verdict; one that throws (a value nested deeper than the stack allows) is a value not taken. */
function passes(check: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return check(value);
  } catch {
    return false;
  }
}

/** Where an observation reply's long lists are, how long each may be, and what its items are (ObserveReplyData). */
const PACKED_IN_FULL = { elements: [50_000, 'element'], texts: [5_000, 'text'] } as const;
const PACKED_IN_DELTA = { changed: [50_000, 'element'], patches: [50_000, 'patch'], texts: [5_000, 'text'] } as const;
type ItemKind = 'element' | 'text' | 'patch';

/** The column checks of an observation reply's packed lists, by what their items are (see compileColumnChecks). */
export type ObserveReplyChecks = Readonly<Record<ItemKind, ColumnChecks>>;

function mapLists(holder: unknown, lists: Readonly<Record<string, readonly [number, ItemKind]>>, map: (list: unknown, max: number, kind: ItemKind) => unknown): void {
  if (!isPlainObject(holder)) return;
  for (const [key, [max, kind]] of Object.entries(lists)) if (Object.hasOwn(holder, key) && holder[key] !== undefined) holder[key] = map(holder[key], max, kind);
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

/**
 * A parsed reply with its packed lists unpacked in place, for the schema to judge (`checks`: the
 * items checked on the way, see unpackRows); throws PackedRowsError when one is malformed.
 */
export function unpackObserveReply(raw: unknown, checks?: ObserveReplyChecks): unknown {
  if (!isPlainObject(raw)) return raw;
  const unpack = (list: unknown, max: number, kind: ItemKind) => unpackRows(list, max, checks?.[kind]);
  if (raw.kind === 'full') mapLists(raw.snapshot, PACKED_IN_FULL, unpack);
  else if (raw.kind === 'delta') mapLists(raw.delta, PACKED_IN_DELTA, unpack);
  return raw;
}
