import { z } from 'zod';
import { NAMESPACED_ACTION } from '../../protocol/action-name.ts';
import { Origin, SnakeCase } from '../../protocol/primitives.ts';
import { StateName } from '../../protocol/resource.ts';
import { JsonSchemaObject } from '../../protocol/webmcp.ts';
import { compilePath } from './path-pattern.ts';

/**
 * The declarative adapter format: per origin and URL path, how to read a page's resource, state,
 * fields and actions from a PageSnapshot. Data only — no code, no selectors: adapters read the
 * same snapshot fusion does (text near a label, JSON-LD paths, URL groups, elements by role and
 * name), so one user-added adapter cannot do more than observe.
 */

/** A regular expression source, bounded and checked to compile. */
const Pattern = z
  .string()
  .min(1)
  .max(300)
  .refine((s) => {
    try {
      new RegExp(s, 'i');
      return true;
    } catch {
      return false;
    }
  }, 'must be a valid regular expression');

/** An element found by its computed role and accessible name (exact, case-insensitive) or a name pattern. */
export const ElementMatcher = z
  .object({ role: z.string().min(1).max(64), name: z.string().max(1024).optional(), name_pattern: Pattern.optional() })
  .strict()
  .refine((m) => m.name !== undefined || m.name_pattern !== undefined, 'needs name or name_pattern');
export type ElementMatcher = z.infer<typeof ElementMatcher>;

/** Where a value is read from. */
export const ValueSource = z.discriminatedUnion('from', [
  /** A named group of the match.path pattern (`/orders/:id` → `id`). */
  z.object({ from: z.literal('url_group'), group: z.string().min(1).max(64) }).strict(),
  /** A dotted path into the first JSON-LD / microdata item of `type` (`orderStatus`, `customer.name`). */
  z.object({ from: z.literal('json_ld'), type: z.string().max(100).optional(), path: z.string().min(1).max(200) }).strict(),
  /** The value next to a label: `Status: Paid`, or a `Status` block followed by `Paid`. */
  z.object({ from: z.literal('label'), label: z.string().min(1).max(100) }).strict(),
  /** The first short text block after the heading matching `heading`. */
  z.object({ from: z.literal('after_heading'), heading: Pattern }).strict(),
  /** The first text block matching `pattern`; its first capture group (or the whole match). */
  z.object({ from: z.literal('text'), pattern: Pattern }).strict(),
  /** An element's accessible name or current value. */
  z.object({ from: z.literal('element'), element: ElementMatcher, read: z.enum(['name', 'value']) }).strict(),
  z.object({ from: z.literal('const'), value: z.string().min(1).max(256) }).strict(),
]);
export type ValueSource = z.infer<typeof ValueSource>;

export const ValueRule = z
  .object({
    read: ValueSource,
    /** How to interpret the text: a state name, money, a date, a count, or plain text. */
    kind: z.enum(['text', 'state', 'money', 'date', 'count']).default('text'),
    /** Page wording → value (`"Awaiting payment": "awaiting_payment"`); unmapped text is not read. */
    map: z.record(z.string().max(200), z.string().max(200)).optional(),
  })
  .strict();
export type ValueRule = z.infer<typeof ValueRule>;

const AdapterInput = z
  .object({
    /** The control that takes this input, and the input's JSON Schema. */
    element: ElementMatcher,
    schema: JsonSchemaObject,
    required: z.boolean().default(true),
  })
  .strict();

export const AdapterAction = z
  .object({
    name: z.string().regex(NAMESPACED_ACTION, 'must be namespace.verb, e.g. orders.cancel'),
    title: z.string().max(256).optional(),
    description: z.string().max(4096).optional(),
    /** The control that performs it (a submit button, a link). */
    target: ElementMatcher,
    inputs: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), AdapterInput).default({}),
    read_only: z.boolean(),
    consequential: z.boolean(),
    payment: z.boolean().default(false),
    changes: z.array(SnakeCase).max(16).optional(),
    /** Offered only in these states (and only while its target is visible and enabled). */
    states: z.array(StateName).max(32).optional(),
  })
  .strict()
  .refine((a) => !(a.read_only && a.changes && a.changes.length > 0), { message: 'a read-only action cannot list changes', path: ['changes'] });
export type AdapterAction = z.infer<typeof AdapterAction>;

export const Adapter = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'must be a short lower-case id, e.g. larkspur-shop.order'),
    title: z.string().max(256).optional(),
    match: z
      .object({
        /** Exact origins; omitted → any origin whose page carries the marker. */
        origins: z.array(Origin).max(32).optional(),
        /** Path pattern: `/orders/:id`, `*` for any run of characters. */
        path: z
          .string()
          .min(1)
          .max(300)
          .startsWith('/')
          .refine((p) => {
            try {
              compilePath(p);
              return true;
            } catch {
              return false;
            }
          }, 'must be a path pattern such as /orders/:id (each :name once)'),
        /** What identifies the site when the origin is not fixed (demo sites on ephemeral ports). */
        marker: z
          .object({ title: Pattern.optional(), text: Pattern.optional(), json_ld_type: z.string().max(100).optional() })
          .strict()
          .optional(),
      })
      .strict(),
    resource: z.object({ type: SnakeCase, id: ValueRule }).strict(),
    state: ValueRule.optional(),
    fields: z.record(SnakeCase, ValueRule).default({}),
    /** Fields this page shows somewhere; when none can be read, fusion reports a blind spot. */
    expect: z.array(SnakeCase).max(32).default([]),
    actions: z.array(AdapterAction).max(64).default([]),
  })
  .strict();
export type Adapter = z.infer<typeof Adapter>;
export type AdapterDefinition = z.input<typeof Adapter>;
