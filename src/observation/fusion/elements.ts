import { ElementState, type ElementSummary, type FormField, type FormSummary } from '../../protocol/element.ts';
import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';

/**
 * The snapshot's elements and forms in the protocol's shapes. The snapshot comes from a content
 * script on a hostile page, so everything is bounded and anything the protocol would reject is
 * dropped here rather than failing the whole observation.
 */

const REF = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,63}$/;
const STATES = new Set<string>(ElementState.options);

function validRef(ref: unknown): ref is string {
  return typeof ref === 'string' && REF.test(ref);
}

function clip(text: string | undefined, max: number): string | undefined {
  return text === undefined ? undefined : text.length > max ? text.slice(0, max) : text;
}

type DialogOf = NonNullable<ElementSummary['dialog']>;

/** The dialogs among the snapshot's containers, by ref (a dialog is a container of one row: its content). */
function dialogsOf(snapshot: PageSnapshot): Map<string, DialogOf> {
  const out = new Map<string, DialogOf>();
  for (const c of snapshot.containers ?? []) {
    if (c.role !== 'dialog' && c.role !== 'alertdialog') continue;
    const name = clip(c.name?.trim(), 1024);
    out.set(c.ref, { role: c.role, ...(name ? { name } : {}) });
  }
  return out;
}

/** Every element in the protocol's shape, with the dialog it sits in. */
export function summarizeElements(elements: readonly SnapshotElement[], snapshot: PageSnapshot): ElementSummary[] {
  const dialogs = dialogsOf(snapshot);
  return elements.map((e) => {
    const summary = summarizeElement(e);
    const dialog = e.container ? dialogs.get(e.container.ref) : undefined;
    return dialog ? { ...summary, dialog } : summary;
  });
}

function summarizeElement(e: SnapshotElement): ElementSummary {
  const states = [...new Set(e.states.filter((s) => STATES.has(s)))];
  const role = (clip(e.role, 64) || 'generic').trim() || 'generic';
  return {
    ref: e.ref,
    role,
    name: clip(e.name, 1024) ?? '',
    ...(e.value !== undefined ? { value: clip(e.value, 4096)! } : {}),
    ...(e.description ? { description: clip(e.description, 1024)! } : {}),
    ...(e.href ? { href: clip(e.href, 4096)! } : {}),
    states,
    visibility: e.visibility,
    // Issue 26's fields, as the page side gave them (the protocol re-validates the whole state).
    ...(e.inferred ? { inferred: e.inferred } : {}),
    ...(e.coveredBy ? { covered_by: e.coveredBy } : {}),
    ...(e.range ? { range: e.range } : {}),
    ...(e.controls && validRef(e.controls) ? { controls: e.controls } : {}),
    ...(e.shape ? { shape: e.shape } : {}),
    ...(e.passive ? { passive: true as const } : {}),
  };
}

/** Elements with a usable ref, first occurrence of each ref only. */
export function usableElements(snapshot: PageSnapshot): SnapshotElement[] {
  const seen = new Set<string>();
  return snapshot.elements.filter((e) => {
    if (!validRef(e.ref) || seen.has(e.ref)) return false;
    seen.add(e.ref);
    return true;
  });
}

function fieldType(e: SnapshotElement): string {
  const t = e.tag === 'select' ? 'select' : e.tag === 'textarea' ? 'textarea' : (e.inputType ?? e.role ?? 'text');
  return (t.slice(0, 32) || 'text').trim() || 'text';
}

export function summarizeForms(snapshot: PageSnapshot, byRef: ReadonlyMap<string, SnapshotElement>): FormSummary[] {
  const forms: FormSummary[] = [];
  for (const form of snapshot.forms.slice(0, 200)) {
    if (!validRef(form.ref)) continue;
    const fields: FormField[] = [];
    for (const ref of form.fieldRefs.slice(0, 1000)) {
      const e = byRef.get(ref);
      if (!e) continue;
      fields.push({
        ref,
        name: clip(e.name, 1024) ?? '',
        type: fieldType(e),
        required: e.states.includes('required'),
        ...(e.value !== undefined ? { value: clip(e.value, 4096)! } : {}),
        ...(e.options ? { options: e.options.slice(0, 1000).map((o) => clip(o, 1024)!) } : {}),
        visibility: e.visibility,
      });
    }
    const toolname = form.toolname?.trim().slice(0, 256);
    forms.push({
      ref: form.ref,
      ...(form.name ? { name: clip(form.name, 1024)! } : {}),
      ...(form.method ? { method: form.method } : {}),
      ...(form.methodDeclared ? { method_declared: true } : {}),
      ...(form.action ? { action: clip(form.action, 4096)! } : {}),
      fields,
      ...(form.submitRef && byRef.has(form.submitRef) ? { submit_ref: form.submitRef } : {}),
      ...(toolname ? { toolname } : {}),
    });
  }
  return forms;
}
