import type { ElementState, ElementSummary } from '../protocol/element.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { ObservedChanges } from '../protocol/results.ts';
import type { PageActivity } from './ports.ts';

/**
 * What a DOM action really changed, from the observations before and after it and what the page
 * reported while it ran: elements that appeared or went away, values and states that changed,
 * the address, and the requests that may have written. So a `<span>` that looked harmless but
 * deleted something is caught by its effect. Pure.
 */

const EXAMPLES = 5;
const CHANGED = 8;
/** Focus moves with every press: not a change of the page. */
const IGNORED_STATES: ReadonlySet<ElementState> = new Set(['focused']);
const SHOWN = new Set(['visible', 'covered']);

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const glimpse = (e: ElementSummary) => ({ role: e.role.slice(0, 64), name: clip(e.name) });

function shown(s: ObservedState): Map<string, ElementSummary> {
  const out = new Map<string, ElementSummary>();
  for (const e of s.elements ?? []) if (SHOWN.has(e.visibility)) out.set(e.ref, e);
  return out;
}

function count(list: ElementSummary[]): ObservedChanges['appeared'] {
  return list.length ? { count: list.length, examples: list.slice(0, EXAMPLES).map(glimpse) } : undefined;
}

export function observedChanges(before: ObservedState, after: ObservedState | null, activity: PageActivity | undefined, readOnly: boolean): ObservedChanges | undefined {
  const out: ObservedChanges = {};
  if (after) {
    const was = shown(before);
    const now = shown(after);
    out.appeared = count([...now.values()].filter((e) => !was.has(e.ref)));
    out.removed = count([...was.values()].filter((e) => !now.has(e.ref)));
    const changed: NonNullable<ObservedChanges['changed']> = [];
    let changedCount = 0;
    for (const [ref, e] of now) {
      const b = was.get(ref);
      if (!b) continue;
      const valueMoved = (b.value ?? '') !== (e.value ?? '');
      const added = e.states.filter((x) => !IGNORED_STATES.has(x) && !b.states.includes(x));
      const removed = b.states.filter((x) => !IGNORED_STATES.has(x) && !e.states.includes(x));
      if (!valueMoved && added.length === 0 && removed.length === 0) continue;
      changedCount++;
      if (changed.length >= CHANGED) continue;
      changed.push({
        ref,
        ...glimpse(e),
        ...(valueMoved ? { value: { ...(b.value !== undefined ? { from: clip(b.value) } : {}), ...(e.value !== undefined ? { to: clip(e.value) } : {}) } } : {}),
        ...(added.length || removed.length ? { states: { added, removed } } : {}),
      });
    }
    if (changed.length) {
      out.changed = changed;
      out.changed_count = changedCount;
    }
    if (after.url !== before.url) out.url = { from: before.url.slice(0, 512), to: after.url.slice(0, 512) };
  }
  if (activity?.requests?.length) {
    out.requests = activity.requests;
    if (readOnly) out.read_only_wrote = true;
  }
  if (activity?.settle) out.settle = activity.settle;
  const clean = Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as ObservedChanges;
  return Object.keys(clean).length ? clean : undefined;
}
