import { expand, query } from '../observation/render/index.ts';
import { elementLine, FULL_DETAIL, textLine } from '../observation/render/format.ts';
import type { PageSnapshot } from '../protocol/snapshot.ts';
import type { ReadStep } from './step-schema.ts';

/**
 * The model's `read` step, run purely over the observed snapshot: `expand` one ref or `query` by
 * role/name/text. The text goes back to the model as page data, bounded like any outcome.
 */

const MAX_READ_CHARS = 2000;
const MAX_MATCHES = 20;

const clip = (s: string) => (s.length > MAX_READ_CHARS ? `${s.slice(0, MAX_READ_CHARS - 1)}…` : s);

/** Why the step is not a valid read (the model gets the sentence on the retry), or undefined. */
export function readProblem(step: ReadStep): string | undefined {
  if ((step.ref === undefined) === (step.query === undefined)) return 'A read needs exactly one of "ref" or "query".';
  if (step.query && step.query.role === undefined && step.query.name === undefined && step.query.text === undefined) return 'A read query needs at least one of "role", "name" or "text".';
  return undefined;
}

/** How the read is named in stuck detection and the history. */
export function readTarget(step: ReadStep): string {
  return step.ref !== undefined ? `ref ${step.ref}` : `query ${JSON.stringify(step.query)}`;
}

export function runRead(step: ReadStep, snapshot: PageSnapshot | undefined): string {
  if (!snapshot) return 'no snapshot to read: use the page rendering and the listed actions';
  if (step.ref !== undefined) return clip(expand(snapshot, step.ref) ?? `nothing on the page has ref "${step.ref}"`);
  const found = query(snapshot, { ...step.query, limit: MAX_MATCHES });
  if (found.total === 0 && found.texts.length === 0) return `nothing on the page matches ${JSON.stringify(step.query)}`;
  const lines = [
    `${found.total} element(s) match${found.total > found.elements.length ? `, first ${found.elements.length} shown` : ''}`,
    ...found.elements.map((e) => elementLine(e, snapshot.url, FULL_DETAIL)),
    ...found.texts.map((t) => textLine(t, FULL_DETAIL)),
  ];
  return clip(lines.join('\n'));
}
