import { originOf } from '../base/origin.ts';
import type { ActionRequest, AvailableAction } from '../protocol/action.ts';
import type { ApprovalRequest } from '../protocol/approval.ts';
import type { FormSummary } from '../protocol/element.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { ResourceId, ResourceType, type ResourceRef } from '../protocol/resource.ts';
import { formOfAction } from './form-binding.ts';

/**
 * What an action really acts on, for its card, its audit and the token's resource scope (issue 27,
 * item 11): the resource its input names — a tool's `order_id`, a form's `order_id` field — or,
 * for a control of the page with nothing of the kind, the page's own resource; a contract action's
 * resource is bound by the contract. When nothing names it, it is "not known", in words: the page's
 * resource is never put in its place (a tool on the page of ORD-7001 may cancel ORD-7002). Pure.
 */
export type ActsOn = NonNullable<ApprovalRequest['acts_on']>;

/** `order_id`, `orderId`, `order_number`, `orderRef`, or plain `id` (the page's kind): a key that names a resource. */
const ID_KEY = /^(?:([A-Za-z][A-Za-z0-9_]*?)(?:_id|_ID|Id|ID|_number|Number|_no|_ref|Ref))$|^(id|ID)$/;

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase()
    .replace(/_+$/, '');

/** The kind of resource the page is about, when Steward knows or can say it. */
function pageType(observed: ObservedState): string | undefined {
  if (observed.resource_identity?.certainty === 'unknown') return observed.resource_identity.likely_type;
  return observed.resource.type === 'page' ? undefined : observed.resource.type;
}

/** The resources named by `entries` (key → value), the page's kind first. */
function namedIn(entries: ReadonlyArray<readonly [string, unknown]>, observed: ObservedState): Array<{ resource: ResourceRef; key: string }> {
  const kind = pageType(observed);
  const found: Array<{ resource: ResourceRef; key: string }> = [];
  for (const [key, value] of entries) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const m = ID_KEY.exec(key.trim()) ?? (kind && snake(key) === kind ? [key, key] : null);
    if (!m) continue;
    const type = m[2] !== undefined ? kind : snake(m[1]!);
    const id = String(value).trim();
    if (!type || !ResourceType.safeParse(type).success || !ResourceId.safeParse(id).success) continue;
    found.push({ resource: { type, id }, key });
  }
  return found.sort((a, b) => Number(b.resource.type === kind) - Number(a.resource.type === kind));
}

const what = (r: ResourceRef) => `${r.type.replace(/_/g, ' ')} ${r.id}`;

function pageWords(observed: ObservedState): string {
  return observed.resource_identity?.certainty === 'unknown' || observed.resource.type === 'page' ? 'a page Steward could not tie to a resource' : what(observed.resource);
}

export function actsOn(request: Pick<ActionRequest, 'action' | 'input' | 'resource'>, description: Pick<AvailableAction, 'via'>, observed: ObservedState): ActsOn {
  if (description.via === 'site_contract') return { known: true, resource: request.resource, basis: 'the site’s contract binds the action to it' };
  const form = formOfAction(request, observed);
  const fromInput = namedIn(Object.entries(request.input), observed)[0];
  const fromForm = form ? namedIn(formEntries(form), observed)[0] : undefined;
  if (fromInput && !isDomInput(request.action)) return { known: true, resource: fromInput.resource, basis: `the input’s “${fromInput.key}”` };
  if (fromForm) return { known: true, resource: fromForm.resource, basis: `the form’s field “${fromForm.key}”` };
  // A domain adapter's action drives the page's own controls (its cancel button on its order): like them, it acts on the page's resource.
  if (isDomInput(request.action) || description.via === 'adapter') {
    if (observed.resource_identity?.certainty === 'unknown' || observed.resource.type === 'page') return { known: false, basis: 'a control of a page Steward could not tie to a resource' };
    return { known: true, resource: observed.resource, basis: 'a control of the page that shows it' };
  }
  return { known: false, basis: `its input names no resource (it runs on ${pageWords(observed)}, which is not necessarily what it changes)` };
}

function formEntries(form: FormSummary): Array<[string, unknown]> {
  return form.fields.filter((f) => f.value !== undefined).map((f) => [f.name, f.value]);
}

function isDomInput(action: string): boolean {
  return action.startsWith('dom.') || action.startsWith('nav.');
}

/** The origin a submitted form sends its values to, when it is not the page's own. */
export function sendsTo(request: Pick<ActionRequest, 'action' | 'input'>, observed: ObservedState): string | undefined {
  const form = formOfAction(request, observed);
  if (!form?.action || form.method === 'dialog') return undefined;
  const to = originOf(form.action);
  return to && to !== originOf(observed.url) ? to : undefined;
}

/** A known resource of the request's own kind that is not the request's: the token must cover it too. */
export function otherResource(request: Pick<ActionRequest, 'resource'>, acting: ActsOn): ResourceRef | undefined {
  if (!acting.known) return undefined;
  const r = acting.resource;
  return r.type === request.resource.type && r.id !== request.resource.id ? r : undefined;
}
