import type { ElementSummary, FormSummary } from '../protocol/element.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { WriteRequest } from '../protocol/messages.ts';

/**
 * Controls whose "harmless" action wrote (issue 27, quiet sinks): a click Steward judged
 * read-only, or typing into a plain field, that set off a request which may have written (a
 * POST, a GET to another origin, an image from another origin). From then on that control is
 * consequential for every agent on that site: the next use waits for the person.
 *
 * A control is named by what survives a new look, never by its per-look ref: its role, its
 * accessible name, the form it is in (by name) and, for a link, where it leads. The page can
 * rename a control to shed the memory; it gains nothing by it that it did not have before the
 * first write (only "the page did it once" is remembered, never "this control is safe").
 */

export interface WrittenControl {
  /** The site (origin) it wrote on. */
  origin: string;
  /** controlKey() of the control. */
  control: string;
  /** How a person would name it: “textbox “Notes””. */
  label: string;
  /** One of the requests it set off, for the card (method and address). */
  request: { method: string; url: string };
  at: number;
}

export interface WrittenControls {
  find(origin: string, control: string): Promise<WrittenControl | undefined>;
  remember(entry: WrittenControl): Promise<void>;
}

/** In memory: unit tests, the benchmark. */
export class MemoryWrittenControls implements WrittenControls {
  private readonly entries = new Map<string, WrittenControl>();

  find(origin: string, control: string): Promise<WrittenControl | undefined> {
    return Promise.resolve(this.entries.get(`${origin} ${control}`));
  }

  remember(entry: WrittenControl): Promise<void> {
    this.entries.set(`${entry.origin} ${entry.control}`, entry);
    return Promise.resolve();
  }
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 200);

function formOf(observed: ObservedState, ref: string): FormSummary | undefined {
  return (observed.forms ?? []).find((f) => f.submit_ref === ref || f.fields.some((x) => x.ref === ref));
}

function linkPath(href: string): string {
  try {
    const u = new URL(href);
    return `${u.origin}${u.pathname}`;
  } catch {
    return href.slice(0, 300);
  }
}

/** The stable description of a control (see above), or undefined for an element with nothing stable to name it by. */
export function controlKey(target: ElementSummary, observed: ObservedState): string | undefined {
  const form = formOf(observed, target.ref);
  const field = form?.fields.find((f) => f.ref === target.ref);
  const name = norm(target.name || field?.name || field?.label || '');
  if (!name && !target.href && !form) return undefined;
  return [target.role, name, form ? `form:${norm(form.name ?? '')}` : '', target.href ? `to:${linkPath(target.href)}` : ''].join('|');
}

export function controlLabel(target: ElementSummary): string {
  const name = target.name.replace(/\s+/g, ' ').trim();
  return name ? `${target.role} “${name.slice(0, 80)}”` : `an unnamed ${target.role}`;
}

/**
 * A label's role and name (the page's own words), read back from controlLabel's form: a remembered
 * control keeps only its label, so the card can name its role in the person's words. Undefined for
 * a label of another form.
 */
export function controlLabelParts(label: string): { role: string; name?: string } | undefined {
  const named = /^([a-z][a-z-]*) “(.+)”$/s.exec(label);
  if (named) return { role: named[1]!, name: named[2]! };
  const unnamed = /^an unnamed ([a-z][a-z-]*)$/.exec(label);
  return unnamed ? { role: unnamed[1]! } : undefined;
}

/** The first request that wrote, for the memory: the card names it. */
export function firstWrite(requests: readonly WriteRequest[] | undefined): { method: string; url: string } | undefined {
  const r = requests?.[0];
  return r ? { method: r.method, url: r.url.slice(0, 300) } : undefined;
}
