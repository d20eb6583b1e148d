import { z } from 'zod';
import { ActionName } from '../protocol/action-name.ts';
import { HumanText, JsonObject } from '../protocol/primitives.ts';
import { ResourceRef } from '../protocol/resource.ts';
import { parseOrError } from '../protocol/validate.ts';

/** The model's reply for one step: exactly one action, a read of the page, a claim that the goal is done, or a question. */
const Thought = z.string().max(2000);

const Act = z.strictObject({
  kind: z.literal('act'),
  thought: Thought,
  action: z.strictObject({
    name: ActionName,
    /** Defaults to the observed resource. */
    resource: ResourceRef.optional(),
    input: JsonObject.default({}),
  }),
  /** What the model expects to see after: recorded beside the objective result, never trusted. */
  expect: HumanText,
});

/**
 * Reads what the page rendering collapsed, without changing anything: one ref in full, or the
 * elements matching a query. Exactly one of `ref`/`query` (checked by the loop, so the schema stays
 * a plain object that converts to JSON Schema for providers' structured output).
 */
const Read = z.strictObject({
  kind: z.literal('read'),
  thought: Thought,
  ref: z.string().min(1).max(64).optional(),
  query: z
    .strictObject({
      /** Exact role, e.g. `button`. */
      role: z.string().min(1).max(64).optional(),
      /** Part of the accessible name (case-insensitive). */
      name: z.string().min(1).max(200).optional(),
      /** Part of the name, value, description or page text (case-insensitive). */
      text: z.string().min(1).max(200).optional(),
    })
    .optional(),
});

const Done = z.strictObject({ kind: z.literal('done'), thought: Thought, claim: HumanText });

const AskPerson = z.strictObject({ kind: z.literal('ask_person'), thought: Thought, question: HumanText });

export const Step = z.discriminatedUnion('kind', [Act, Read, Done, AskPerson]);
export type Step = z.infer<typeof Step>;
export type ActStep = z.infer<typeof Act>;
export type ReadStep = z.infer<typeof Read>;

export type StepParse = { ok: true; step: Step } | { ok: false; error: string };

/** A ```json fence around the object is tolerated; anything else around it is not. */
function unfence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text.trim());
  return fenced ? fenced[1]! : text.trim();
}

/** Parses the model's text into a Step, or a sentence the model can act on when retried. */
export function parseStep(text: string): StepParse {
  let value: unknown;
  try {
    value = JSON.parse(unfence(text));
  } catch (e) {
    return { ok: false, error: `Your reply is not one JSON object (${e instanceof Error ? e.message : String(e)}).` };
  }
  const parsed = parseOrError(Step, value, { what: 'step' });
  if (parsed.ok) return { ok: true, step: parsed.value };
  const issues = parsed.error.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
  return { ok: false, error: `${parsed.error.message}${issues ? ` [${issues}]` : ''}` };
}
