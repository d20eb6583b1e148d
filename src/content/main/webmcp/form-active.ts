/**
 * Chrome's `:tool-form-active` (a declarative tool's form while an agent's call fills and sends
 * it) and `:tool-submit-active` (the form's submit button then) are pseudo-classes a polyfill
 * cannot add: the browser's selector parser rejects them. Where Steward's polyfill runs, the same
 * moments are reflected as attributes a page can style and test instead:
 * `form[data-tool-form-active]` and `[data-tool-submit-active]` (README, "Steward's polyfill").
 * Set before the form is filled, so the page sees them in its `submit` handler, and removed once
 * the call has its answer.
 */
const FORM_ACTIVE_ATTRIBUTE = 'data-tool-form-active';
const SUBMIT_ACTIVE_ATTRIBUTE = 'data-tool-submit-active';

/** The button that submits the form, as the declarative polyfill picks it: its first enabled submit button. */
function submitterOf(form: HTMLFormElement): Element | undefined {
  for (const element of form.elements) {
    if (element.matches(':disabled')) continue;
    if (element instanceof HTMLButtonElement && element.type === 'submit') return element;
    if (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image')) return element;
  }
  return undefined;
}

/** Marks the form (and its submit button) active; the returned function takes the marks off. */
export function markActiveForm(form: HTMLFormElement): () => void {
  const submitter = submitterOf(form);
  form.setAttribute(FORM_ACTIVE_ATTRIBUTE, '');
  submitter?.setAttribute(SUBMIT_ACTIVE_ATTRIBUTE, '');
  return () => {
    form.removeAttribute(FORM_ACTIVE_ATTRIBUTE);
    submitter?.removeAttribute(SUBMIT_ACTIVE_ATTRIBUTE);
  };
}
