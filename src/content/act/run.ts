import type { ActReport, ActStep, ActStepReport } from '../../protocol/messages.ts';
import { formChanged } from './form-check.ts';
import { click, scroll, select, typeText } from './perform.ts';

/**
 * The content side of DOM execution (DESIGN §8: the isolated world executes DOM
 * actions). Refs are re-resolved through the observation engine's ref registry at the moment of
 * acting: a ref from another document, or whose element is gone, is refused, never guessed.
 */
export interface RefResolver {
  /** The live, connected element behind a ref of the current document, if any. */
  elementFor(ref: string): Element | undefined;
  /** The current document's token (refs are issued per document). */
  readonly documentToken: string | undefined;
}

export function runSteps(steps: readonly ActStep[], resolver: RefResolver, documentToken?: string): ActReport {
  const reports: ActStepReport[] = [];
  const token = resolver.documentToken;
  const base = (s: ActStep) => ({ op: s.op, ...(s.ref ? { ref: s.ref } : {}) });
  if (documentToken !== undefined && token !== documentToken) {
    const first = steps[0]!;
    reports.push({ ...base(first), status: 'refused', code: 'STALE_DOCUMENT', message: 'The page has changed to another document since it was observed; its refs no longer apply. Observe again.' });
    return { ...(token ? { documentToken: token } : {}), steps: reports };
  }
  for (const step of steps) {
    const el = step.ref ? resolver.elementFor(step.ref) : undefined;
    if (step.ref && !el) {
      reports.push({
        ...base(step),
        status: 'refused',
        code: 'REF_NOT_FOUND',
        message: `No live element has ref ${step.ref} in this document (it was removed, or the ref is unknown). Observe again.`,
      });
      break;
    }
    let r: Omit<ActStepReport, 'op' | 'ref'>;
    switch (step.op) {
      case 'click': {
        const form = step.form;
        r = click(el!, form ? () => formChanged(form, (ref) => resolver.elementFor(ref)) : undefined);
        break;
      }
      case 'type':
        r = typeText(el!, step.text, step.clear === true);
        break;
      case 'select':
        r = select(el!, step.values);
        break;
      case 'scroll':
        r = scroll(el, step);
        break;
    }
    reports.push({ ...base(step), ...r });
    // Stop at the first step that did not happen, or after one that leaves the page.
    if (r.status !== 'done' || r.navigation) break;
  }
  for (const s of steps.slice(reports.length)) reports.push({ ...base(s), status: 'skipped', message: 'not run: an earlier step did not complete or the page is navigating' });
  return { ...(token ? { documentToken: token } : {}), steps: reports };
}
