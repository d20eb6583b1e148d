import { z } from 'zod';

/**
 * Action names and action identifiers. Kept apart from action.ts so approval.ts can use them
 * without an import cycle.
 */

/**
 * The DOM layer's primitives: they act on element refs, not on resources' semantics. Everything a
 * person does with a mouse and keyboard: click, type, choose, scroll, press keys, hover, drag,
 * set a checkbox, and pick a file (which only the person may do).
 */
export const DomActionName = z.enum(['dom.click', 'dom.type', 'dom.select', 'dom.scroll', 'dom.press', 'dom.hover', 'dom.drag', 'dom.check', 'dom.upload', 'nav.goto']);
export type DomActionName = z.infer<typeof DomActionName>;

/** `namespace.verb`, as used by site contracts and adapters, e.g. `orders.cancel`. */
export const NAMESPACED_ACTION = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/** Namespaces reserved for the DOM primitives; nothing else may use them. */
const RESERVED_NAMESPACE = /^(?:dom|nav)\./;

/**
 * Any action name: `namespace.verb` (contracts, adapters), a WebMCP tool name (`book_appointment`),
 * or a DOM primitive. WebMCP tools whose names fall outside this alphabet cannot be addressed.
 */
export const ActionName = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,255}$/, 'must be an action name such as orders.cancel, book_appointment or dom.click')
  .refine((name) => !RESERVED_NAMESPACE.test(name) || DomActionName.safeParse(name).success, `the dom.* and nav.* namespaces hold only ${DomActionName.options.join(', ')}`);
export type ActionName = z.infer<typeof ActionName>;

export function isDomAction(name: string): name is DomActionName {
  return DomActionName.safeParse(name).success;
}

/** Client-chosen idempotency key (IETF Idempotency-Key), e.g. `act_8f31`. */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/, 'must be 1–255 characters of letters, digits and _ . : - (e.g. act_8f31)');
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;

/** Identifier of one action execution, used to poll its status; same alphabet as idempotency keys. */
export const ActionId = IdempotencyKey.describe('action id');
export type ActionId = z.infer<typeof ActionId>;
