import { dom } from '../../observation/dom/native.ts';
import { liveState, semanticsOf } from '../../observation/dom/semantics.ts';
import type { ActStep } from '../../protocol/messages.ts';
import type { ActRefusalPhrase } from '../../protocol/act-refusal.ts';
import { refusalSaid } from './refusal-said.ts';

type Expected = NonNullable<Extract<ActStep, { op: 'click' }>['form']>;

/**
 * Right before an approved click in a form: does every field still hold the value the person
 * approved? Read the way the observation reads it (liveState), in the same task as the click, so
 * nothing — the agent's typing, the page's scripts — can slip a different value in between.
 */
export function formChanged(expected: Expected, elementFor: (ref: string) => Element | undefined): { code: 'FORM_CHANGED'; message: string; message_said: ActRefusalPhrase } | undefined {
  for (const field of expected) {
    const el = elementFor(field.ref);
    if (!el) return { code: 'FORM_CHANGED', message: `a field of the approved form (${field.ref}) is gone; the approval no longer matches the form`, message_said: refusalSaid('form_field_gone') };
    const now = liveState(el, semanticsOf(el, dom.localName(el)));
    if ((now.value ?? undefined) !== field.value || (now.check ?? undefined) !== field.check) {
      return {
        code: 'FORM_CHANGED',
        message: `field ${field.ref} of the approved form no longer holds the approved value; nothing was clicked, ask for a new approval`,
        message_said: refusalSaid('form_changed', el),
      };
    }
  }
  return undefined;
}
