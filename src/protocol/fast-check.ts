import type { z } from 'zod';

/**
 * zod's verdict, sooner, for big replies whose every field is checked (pure). A check compiled
 * once from a zod schema answers true only when zod would accept the value AND give back an
 * equal one (no key stripped, nothing transformed); for anything else — a value zod would refuse,
 * a key zod would strip, a schema feature not known here — it answers false, and the caller asks
 * zod itself. So the outcome is always zod's: what is saved is zod's work on the common, valid
 * case. (A service worker's CSP forbids the parsers zod compiles with `new Function`; its generic
 * path costs about a microsecond per field, 50 ms for a 16k-element page's first snapshot.)
 *
 * The checks themselves (lengths, ranges, patterns, integer formats) are zod's own check
 * functions, run on the value; only the shapes (object, array, tuple, union, optional…) are
 * walked here, each as zod's parser walks it. Refinements, transforms, defaults, pipes, records
 * and the like are handed to zod for that part of the value, whose answer must then equal it.
 */

/** True: zod accepts the value and would give back an equal value. False: ask zod. */
type FastCheck = (value: unknown) => boolean;

type Internals = {
  def: Record<string, unknown> & { type: string; checks?: CheckInst[] };
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  propValues?: Record<string, Set<unknown>>;
  check?: (payload: Payload) => void;
};
type Schema = { _zod: Internals; safeParse(value: unknown): { success: boolean; data?: unknown } };
type CheckInst = { _zod: { def: { check: string; when?: (payload: Payload) => boolean }; check: (payload: Payload) => unknown } };
type Payload = { value: unknown; issues: unknown[] };

const NEVER: FastCheck = () => false;
const ALWAYS: FastCheck = () => true;
/** The check kinds that only read the value (a refinement may be async; an overwrite changes it). */
const READ_ONLY_CHECKS = new Set(['max_length', 'min_length', 'length_equals', 'string_format', 'greater_than', 'less_than', 'number_format', 'multiple_of', 'max_size', 'min_size', 'size_equals']);
const MAX_DEPTH = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isPlain = (o: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
};

/** Whether two JSON-like values are alike all the way down (own keys, same count). */
function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!Object.hasOwn(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/** That part of the value judged by zod itself: its answer must be an equal value. */
const byZod =
  (schema: Schema): FastCheck =>
  (v) => {
    const r = schema.safeParse(v);
    return r.success && sameJson(r.data, v);
  };

const payload: Payload = { value: undefined, issues: [] };

/** Runs one of zod's checks on `v` as zod's runner does: true when it passed (or did not apply) and left the value as it was. */
function passes(check: CheckInst['_zod']['check'], when: ((payload: Payload) => boolean) | undefined, v: unknown): boolean {
  payload.value = v;
  payload.issues.length = 0;
  if (when && !when(payload)) return true;
  const done = check(payload);
  return !(done instanceof Promise) && payload.issues.length === 0 && payload.value === v;
}

/** zod's own checks of a schema (its own, when the schema is one, then the added ones), run as zod runs them; undefined when one may not only read. */
function checksOf(schema: Schema): FastCheck | undefined {
  const z = schema._zod;
  const list: CheckInst[] = [...(z.traits.has('$ZodCheck') ? [schema as unknown as CheckInst] : []), ...(z.def.checks ?? [])];
  if (list.length === 0) return ALWAYS;
  for (const c of list) if (!READ_ONLY_CHECKS.has(c._zod.def.check)) return undefined;
  const checks = list.map((c) => c._zod.check);
  const whens = list.map((c) => c._zod.def.when);
  // One check (a length, a pattern, an integer format) is the common case: no loop.
  if (checks.length === 1) {
    const check = checks[0]!;
    const when = whens[0];
    return (v) => passes(check, when, v);
  }
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (!passes(checks[i]!, whens[i], v)) return false;
    return true;
  };
}

/**
 * What zod requires of a value before an option of a union can accept it (a tuple: a list that
 * long; an object: an object…), so that an option passed over is one zod would refuse too.
 */
function guardOf(schema: Schema): FastCheck {
  const d = schema._zod.def;
  if (d.coerce) return ALWAYS;
  switch (d.type) {
    case 'tuple':
      if (!d.rest && (d.items as Schema[]).every((i) => i._zod.optin === undefined)) {
        const n = (d.items as unknown[]).length;
        return (v) => Array.isArray(v) && v.length === n;
      }
      return (v) => Array.isArray(v);
    case 'array':
      return (v) => Array.isArray(v);
    case 'object':
      return isObject;
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'enum':
    case 'literal': {
      const values = schema._zod.values!;
      return (v) => values.has(v);
    }
    default:
      return ALWAYS;
  }
}

class Compiler {
  private readonly done = new Map<Schema, FastCheck>();

  compile(schema: Schema): FastCheck {
    let check = this.done.get(schema);
    if (!check) {
      // Placeholder while compiling (a schema met again inside itself is judged by zod).
      this.done.set(schema, byZod(schema));
      check = this.build(schema);
      this.done.set(schema, check);
    }
    return check;
  }

  private build(schema: Schema): FastCheck {
    const z = schema._zod;
    const d = z.def;
    if (d.coerce) return byZod(schema);
    const checks = checksOf(schema);
    if (!checks) return byZod(schema);
    const withChecks = (base: FastCheck): FastCheck => (checks === ALWAYS ? base : (v) => base(v) && checks(v));
    switch (d.type) {
      case 'string':
        return withChecks((v) => typeof v === 'string');
      case 'number':
        return withChecks((v) => typeof v === 'number' && Number.isFinite(v));
      case 'boolean':
        return withChecks((v) => typeof v === 'boolean');
      case 'null':
        return withChecks((v) => v === null);
      case 'unknown':
      case 'any':
        return withChecks(ALWAYS);
      // zod's answer for a readonly schema is a frozen copy, not the value itself.
      case 'never':
      case 'readonly':
        return NEVER;
      case 'enum':
      case 'literal': {
        const values = z.values;
        if (!values) return byZod(schema);
        return withChecks((v) => values.has(v));
      }
      case 'optional': {
        const inner = d.innerType as Schema;
        if (z.traits.has('$ZodExactOptional') || inner._zod.optin === 'defaulted') return byZod(schema);
        const item = this.compile(inner);
        return withChecks((v) => v === undefined || item(v));
      }
      case 'nullable': {
        const item = this.compile(d.innerType as Schema);
        return withChecks((v) => v === null || item(v));
      }
      case 'array': {
        const element = d.element as Schema;
        const item = this.compile(element);
        // The length first: a hostile list of millions is refused before its items are looked at.
        return (v) => {
          if (!Array.isArray(v) || !checks(v)) return false;
          // Items the column checks already took (see compileColumnChecks), once.
          if (vouched.get(v) === element) {
            vouched.delete(v);
            return true;
          }
          for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
          return true;
        };
      }
      case 'tuple': {
        const items = d.items as Schema[];
        if (d.rest || items.some((i) => i._zod.optin !== undefined)) return byZod(schema);
        const compiled = items.map((i) => this.compile(i));
        const n = compiled.length;
        return withChecks((v) => {
          if (!Array.isArray(v) || v.length !== n) return false;
          for (let i = 0; i < n; i++) if (!compiled[i]!(v[i])) return false;
          return true;
        });
      }
      case 'object':
        return withChecks(this.object(schema));
      case 'union':
        return withChecks(d.discriminator !== undefined ? this.discriminated(schema) : this.union(schema));
      default:
        return byZod(schema);
    }
  }

  private object(schema: Schema): FastCheck {
    const shape = plainObjectShape(schema);
    if (!shape) return byZod(schema);
    const keys = Object.keys(shape);
    const keySet = new Set(keys);
    const fields = keys.map((k) => this.compile(shape[k]!));
    // zod refuses an absent key unless its schema may be absent (`optin`), whatever it makes of undefined.
    const required = keys.map((k) => shape[k]!._zod.optin === undefined);
    const n = keys.length;
    return (v) => {
      if (!isObject(v)) return false;
      for (let i = 0; i < n; i++) {
        const key = keys[i]!;
        const value = v[key];
        if (value === undefined && required[i] && !(key in v)) return false;
        if (!fields[i]!(value)) return false;
      }
      for (const key in v) if (!keySet.has(key)) return false;
      return true;
    };
  }

  private discriminated(schema: Schema): FastCheck {
    const d = schema._zod.def;
    const key = d.discriminator as string;
    if (d.unionFallback) return byZod(schema);
    const byValue = new Map<unknown, FastCheck>();
    for (const option of d.options as Schema[]) {
      const values = option._zod.propValues?.[key];
      if (!values || values.size === 0) return byZod(schema);
      for (const value of values) {
        if (value === undefined || byValue.has(value)) return byZod(schema);
        byValue.set(value, this.compile(option));
      }
    }
    return (v) => {
      if (!isObject(v)) return false;
      const option = byValue.get(v[key]);
      return option !== undefined && option(v);
    };
  }

  /**
   * The checks of the columns of rows laid out as `keys` (see compileColumnChecks), or undefined
   * when such rows are not for column checks: a key the schema does not know (zod strips or
   * refuses it), a required key missing, a `top.sub` whose field is no plain object.
   */
  columns(schema: Schema, keys: readonly string[]): FastCheck[] | undefined {
    const shape = plainObjectShape(schema);
    if (!shape || checksOf(schema) !== ALWAYS) return undefined;
    const out: FastCheck[] = [];
    const tops = new Set<string>();
    const subsOf = new Map<string, Set<string>>();
    for (const key of keys) {
      const dot = key.indexOf('.');
      const top = dot < 0 ? key : key.slice(0, dot);
      if (!Object.hasOwn(shape, top)) return undefined;
      tops.add(top);
      if (dot < 0) {
        out.push(this.compile(shape[top]!));
        continue;
      }
      const inner = this.nestedShape(shape[top]!);
      const sub = key.slice(dot + 1);
      if (!inner || !Object.hasOwn(inner, sub)) return undefined;
      let subs = subsOf.get(top);
      if (!subs) subsOf.set(top, (subs = new Set()));
      subs.add(sub);
      out.push(this.compile(inner[sub]!));
    }
    if (!requiredPresent(shape, tops)) return undefined;
    for (const [top, subs] of subsOf) if (!requiredPresent(this.nestedShape(shape[top]!)!, subs)) return undefined;
    return out;
  }

  /** The shape of the plain object a field holds when present (through optional and nullable, which a present object passes as their inner schema does). */
  private nestedShape(field: Schema): Record<string, Schema> | undefined {
    let s = field;
    for (let depth = 0; depth < 4; depth++) {
      const d = s._zod.def;
      if (d.coerce || checksOf(s) !== ALWAYS) return undefined;
      if (d.type === 'object') return plainObjectShape(s);
      if (d.type === 'nullable' || (d.type === 'optional' && !s._zod.traits.has('$ZodExactOptional') && (d.innerType as Schema)._zod.optin !== 'defaulted')) s = d.innerType as Schema;
      else return undefined;
    }
    return undefined;
  }

  /** zod takes the first option that accepts: an option is tried here only when every earlier one is one zod refuses. */
  private union(schema: Schema): FastCheck {
    const d = schema._zod.def;
    if (d.inclusive === false) return byZod(schema);
    const options = (d.options as Schema[]).map((o) => ({ guard: guardOf(o), check: this.compile(o) }));
    return (v) => {
      for (const o of options) if (o.guard(v)) return o.check(v);
      return false;
    };
  }
}

/** An object schema's shape, when its objects are checked key by key here: no catchall but `never`, no `__proto__` or symbol keys. */
function plainObjectShape(schema: Schema): Record<string, Schema> | undefined {
  const d = schema._zod.def;
  if (d.type !== 'object') return undefined;
  const catchall = d.catchall as Schema | undefined;
  // Strip (no catchall) or strict (never): an unknown key is stripped or refused, so either way it is zod's to judge.
  if (catchall && catchall._zod.def.type !== 'never') return undefined;
  const shape = d.shape as Record<string, Schema>;
  if (Object.hasOwn(shape, '__proto__') || Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  return shape;
}

/** zod refuses an absent key unless its schema may be absent (`optin`). */
function requiredPresent(shape: Record<string, Schema>, present: ReadonlySet<string>): boolean {
  for (const key of Object.keys(shape)) if (shape[key]!._zod.optin === undefined && !present.has(key)) return false;
  return true;
}

/** Lists every item of which the column checks accepted, by the item schema they checked (taken once by that list's check). */
const vouched = new WeakMap<object, Schema>();

/**
 * Checks for lists of objects of one schema that arrive as rows of values under shared key lists
 * (packed-rows.ts): one check per column instead of one per object, and none for a value that
 * repeats the row before's (already checked). A key `top.sub` is field `sub` of the plain object
 * under `top`. Each column's check is the one compileFastCheck runs for that field, and a layout
 * is only given checks when every object built with it has exactly the keys zod requires and
 * knows; so a list whose every value passed is one the item schema's compiled check accepts as a
 * whole, and `vouch` lets the list's own check (in compileFastCheck, for that item schema) skip
 * the items, once. A value that fails is left to the ordinary checks, which then ask zod.
 */
export interface ColumnChecks {
  /** One check per key, or undefined: rows laid out so are not for column checks. A check may throw (a value nested deeper than the stack allows): count that as not passed. */
  columns(keys: readonly string[]): FastCheck[] | undefined;
  /** Every item of `list` was built with a layout `columns` gave checks for, and every value passed its column's check. */
  vouch(list: object[]): void;
}

export function compileColumnChecks(itemSchema: z.ZodType): ColumnChecks {
  const schema = itemSchema as unknown as Schema;
  const compiler = new Compiler();
  return {
    columns: (keys) => {
      try {
        return compiler.columns(schema, keys);
      } catch {
        return undefined;
      }
    },
    vouch: (list) => vouched.set(list, schema),
  };
}

/** Compiles a check for `schema` (see the file comment). */
function compileFastCheck(schema: z.ZodType): FastCheck {
  const check = new Compiler().compile(schema as unknown as Schema);
  return (value) => {
    try {
      return check(value);
    } catch {
      // A value nested deeper than the stack allows, a check that throws: zod decides.
      return false;
    }
  };
}

/** `schema.safeParse`, with the valid and unchanged case answered by a compiled check first. */
export function fastSafeParse<T extends z.ZodType>(schema: T): (value: unknown) => z.ZodSafeParseResult<z.output<T>> {
  const check = compileFastCheck(schema);
  return (value) => (check(value) ? { success: true, data: value as z.output<T> } : schema.safeParse(value));
}
