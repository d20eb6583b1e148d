import type { ActionRequest } from '../protocol/action.ts';
import type { ObservedState } from '../protocol/observed-state.ts';

/**
 * A declarative WebMCP form that navigates (a GET `<form toolname toolautosubmit>` whose result is
 * a page of its own) gives the agent no answer: Chrome's executeTool has none for it, the
 * polyfill resolves with nothing, and the document that ran it is gone. What it did is what the
 * tab shows afterwards: the form's action, its query carrying the values the agent gave. This
 * says whether the re-observed page is that one, so both WebMCP implementations confirm it alike.
 */

/** The values a GET form puts in its URL for one input member, as the browser writes them. */
function queryValues(value: unknown): string[] | undefined {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map(String);
  return undefined; // a checkbox's boolean or anything else: its query value is the form's, not the agent's
}

/**
 * `true` when `after` shows the result of submitting the form `before` offered as this tool (GET,
 * to its action, carrying every value the agent gave), `false` when it does not, `undefined`
 * when the tool is no GET form with a known action.
 */
export function formNavigationSeen(request: ActionRequest, before: ObservedState, after: ObservedState | null): boolean | undefined {
  const form = (before.forms ?? []).find((f) => f.toolname === request.action);
  if (!form?.action || (form.method ?? 'get') !== 'get') return undefined;
  if (!after) return false;
  let target: URL;
  let shown: URL;
  try {
    target = new URL(form.action);
    shown = new URL(after.url);
  } catch {
    return undefined;
  }
  if (shown.origin !== target.origin || shown.pathname !== target.pathname) return false;
  if (after.url === before.url) return false;
  const input = (request.input ?? {}) as Record<string, unknown>;
  return Object.entries(input).every(([name, value]) => {
    const wanted = queryValues(value);
    if (!wanted) return true;
    const sent = shown.searchParams.getAll(name);
    return wanted.every((w) => sent.includes(w));
  });
}
