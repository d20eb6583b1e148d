import type { ActionRequest } from '../protocol/action.ts';
import type { BoundForm, BoundFormField } from '../protocol/approval.ts';
import type { FormSummary } from '../protocol/element.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { inputHash } from '../base/hash.ts';
import { pressSubmitsForm } from './policy/dom-risk.ts';

/**
 * A click's input is only a ref (an Enter's only a key): what a submit sends is whatever the form
 * holds when it fires. So the approval of a click on any control of a form, or of an Enter in it, binds the form's values as observed (DESIGN
 * §4), the receipt carries their hash, and the content script compares the live values with them
 * right before it clicks (src/content/act/form-check.ts). Pure.
 */

/** The form a control belongs to (one of its fields, or its submit button). */
function formOfControl(observed: ObservedState, ref: string): FormSummary | undefined {
  return (observed.forms ?? []).find((f) => f.submit_ref === ref || f.fields.some((x) => x.ref === ref));
}

/** The form a click on one of its controls, or an Enter in one of its fields, belongs to. */
export function formOfAction(request: Pick<ActionRequest, 'action' | 'input'>, observed: ObservedState): FormSummary | undefined {
  if (request.action === 'dom.click' && typeof request.input.ref === 'string') return formOfControl(observed, request.input.ref);
  if (request.action === 'dom.press') return pressSubmitsForm(request.input, observed);
  return undefined;
}

/**
 * The form values a click, or an Enter pressed in one of its fields (implicit submission), would
 * send; undefined when the action is neither in a form.
 */
export async function boundForm(request: Pick<ActionRequest, 'action' | 'input'>, observed: ObservedState): Promise<BoundForm | undefined> {
  const form = formOfAction(request, observed);
  if (!form) return undefined;
  const states = new Map((observed.elements ?? []).map((e) => [e.ref, e.states] as const));
  const fields: BoundFormField[] = form.fields.map((f) => {
    const s = states.get(f.ref) ?? [];
    const check = s.includes('mixed') ? 'mixed' : s.includes('checked') ? 'checked' : undefined;
    return {
      ref: f.ref,
      name: f.name,
      ...(f.label !== undefined ? { label: f.label } : {}),
      type: f.type,
      ...(f.value !== undefined ? { value: f.value } : {}),
      ...(check ? { check } : {}),
    };
  });
  return { ref: form.ref, ...(form.name !== undefined ? { name: form.name } : {}), fields, hash: await formValuesHash(form.ref, fields) };
}

/** What the receipt binds: every field's identity, value and checked state, in the form's order. */
function formValuesHash(formRef: string, fields: readonly BoundFormField[]): Promise<string> {
  return inputHash({ form: formRef, fields: fields.map((f) => ({ ref: f.ref, name: f.name, type: f.type, value: f.value ?? null, check: f.check ?? null })) });
}

/** What the content script checks right before the click (values only; names may be re-rendered). */
export function expectedFormValues(form: BoundForm): Array<Pick<BoundFormField, 'ref' | 'value' | 'check'>> {
  return form.fields.map((f) => ({ ref: f.ref, ...(f.value !== undefined ? { value: f.value } : {}), ...(f.check ? { check: f.check } : {}) }));
}
