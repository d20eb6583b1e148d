/**
 * Keys no input may carry: assigned onto a plain object they reach its prototype, and zod's
 * records silently drop `__proto__`, so an agent's input could change on the way through. They are
 * refused with INVALID_INPUT naming the path instead (pure).
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type Visit = { value: unknown; key?: string | number; parent?: Visit };

const pathOf = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.unshift(v.key);
  return path;
};

/** The path to a forbidden key at any depth of a JSON value, or undefined. */
export function findForbiddenKey(value: unknown): (string | number)[] | undefined {
  // An explicit stack with parent links: a hostile value may be nested deeper than the call stack allows.
  const stack: Visit[] = [{ value }];
  while (stack.length) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, key: i, parent: visit }));
      continue;
    }
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) return [...pathOf(visit), key];
      stack.push({ value: (v as Record<string, unknown>)[key], key, parent: visit });
    }
  }
  return undefined;
}
