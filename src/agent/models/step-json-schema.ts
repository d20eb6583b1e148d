import { z } from 'zod';
import { Step } from '../step-schema.ts';

/**
 * The JSON Schema of one co-pilot step, derived from the zod `Step` so it follows every change to
 * it. Two shapes: the exact one (a `oneOf` per kind) for the Prompt API's `responseConstraint`,
 * and one flat object for the wire formats whose schema root must be an object (OpenAI's
 * `response_format`, Anthropic's tool `input_schema`); the zod parse of the reply stays the judge.
 */

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value zod cannot describe (the action's `input`, any JSON object) is asked for as an object. */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (!isObject(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema' || k === 'default') continue;
    if (k === 'properties' && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, isObject(p) && !('type' in p) && !('oneOf' in p) && !('anyOf' in p) ? { type: 'object' } : tidy(p)]));
    } else out[k] = tidy(v);
  }
  return out;
}

export const STEP_SCHEMA = tidy(z.toJSONSchema(Step, { io: 'input', unrepresentable: 'any' })) as Schema;

/** Every kind's fields in one object: `kind` an enum of the kinds, required only what all kinds share. */
function flatten(schema: Schema): Schema {
  const branches = ((schema.oneOf ?? schema.anyOf) as Schema[] | undefined) ?? [schema];
  const properties: Schema = {};
  const kinds: unknown[] = [];
  let required: string[] | undefined;
  for (const b of branches) {
    const props = (b.properties ?? {}) as Record<string, Schema>;
    for (const [name, p] of Object.entries(props)) {
      if (name === 'kind') kinds.push(p.const ?? p.enum);
      else properties[name] ??= p;
    }
    const req = (b.required ?? []) as string[];
    required = required ? required.filter((r) => req.includes(r)) : req;
  }
  return { type: 'object', properties: { kind: { type: 'string', enum: kinds.flat() }, ...properties }, required: required ?? ['kind'], additionalProperties: false };
}

export const STEP_OBJECT_SCHEMA = flatten(STEP_SCHEMA);
