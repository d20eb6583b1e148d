import { elementLine, FULL_DETAIL, textLine } from '../observation/render/format.ts';
import { expand, query, renderObserved } from '../observation/render/index.ts';
import { stepMark, stepsByRef, type NeedsApproval } from '../observation/render/marks.ts';
import type { BridgeRequests } from '../protocol/bridge.ts';
import type { Data, Payload } from '../protocol/channel.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { atOrigin } from '../protocol/resource.ts';
import { originOf } from '../base/origin.ts';
import { domSteps } from '../protocol/dom-steps.ts';
import type { PageSnapshot } from '../protocol/snapshot.ts';

/**
 * What `bridge/observe` answers besides the tab: the ObservedState's summary and a text rendering
 * of the page for a model — the compact rendering (as the co-pilot reads it), or the matches of a
 * query, or one ref expanded. Bounded: a rendering over the cap is cut, and says so.
 */

type ObserveReply = Data<BridgeRequests, 'bridge/observe'>;
type ObserveRequest = Payload<BridgeRequests, 'bridge/observe'>;

const MAX_RENDERING_CHARS = 400_000;
const MAX_QUERY_MATCHES = 200;
const CUT_NOTE = '\n… (cut: the rendering is longer than Steward returns; narrow it with query or expand)';

/** How sure Steward is of the resource, in fixed words (never the page's text). */
function identityWords(state: ObservedState): string | undefined {
  const certainty = state.resource_identity?.certainty;
  if (certainty === 'identified') return 'identified: the page names this resource';
  if (certainty === 'guessed') return "guessed: Steward's guess, the page does not name it clearly";
  if (certainty === 'unknown') return 'unknown: Steward could not tell which resource this page is about';
  return undefined;
}

function observeSummary(state: ObservedState): ObserveReply['summary'] {
  const identity = identityWords(state);
  const origin = originOf(state.url);
  return {
    url: state.url.slice(0, 4096),
    title: (state.title ?? '').slice(0, 512),
    // (origin, type, id): what a request names to mean this site's resource and no other's.
    resource: origin ? atOrigin(state.resource, origin) : state.resource,
    state: state.state,
    state_version: state.state_version,
    source: state.source,
    confidence: state.confidence,
    conflicts: state.conflicts.slice(0, 64),
    ...(identity ? { resource_identity: identity } : {}),
  };
}

function queryLines(state: ObservedState, snapshot: PageSnapshot, q: NonNullable<ObserveRequest['query']>, needs: NeedsApproval): string {
  const found = query(snapshot, { ...q, limit: q.limit ?? MAX_QUERY_MATCHES });
  if (found.total === 0 && found.texts.length === 0) return `Nothing on the page matches ${JSON.stringify(q)}.`;
  const steps = stepsByRef(state.actions ?? [], needs);
  return [
    `${found.total} element(s) match${found.total > found.elements.length ? `, first ${found.elements.length} shown` : ''}`,
    ...found.elements.map((e) => elementLine(e, snapshot.url, FULL_DETAIL, { mark: stepMark(steps.get(e.ref)) })),
    ...found.texts.map((t) => textLine(t, FULL_DETAIL)),
  ].join('\n');
}

/**
 * The page as the client's model reads it: the whole rendering with the actions folded in (marks
 * by `needs`, this client's approval rule), or a query's matches, or one ref expanded.
 */
function observeRendering(state: ObservedState, snapshot: PageSnapshot, request: Pick<ObserveRequest, 'query' | 'expand'>, needs: NeedsApproval): string {
  let text: string;
  if (request.expand !== undefined) text = expand(snapshot, request.expand) ?? `Nothing on the page has ref "${request.expand}".`;
  else if (request.query) text = queryLines(state, snapshot, request.query, needs);
  // A page that is its own resource gets no line: its address is the tab's, and steward_execute acts on it when no resource is named.
  else text = renderObserved(snapshot, state, { needsApproval: needs });
  return text.length > MAX_RENDERING_CHARS ? text.slice(0, MAX_RENDERING_CHARS - CUT_NOTE.length) + CUT_NOTE : text;
}

/** Everything `bridge/observe` answers but the tab: the summary, the rendering, and (for the whole page) the DOM steps offered. */
export function observeReply(state: ObservedState, snapshot: PageSnapshot, request: Pick<ObserveRequest, 'query' | 'expand'>, needs: NeedsApproval): Omit<ObserveReply, 'tab'> {
  const whole = request.query === undefined && request.expand === undefined;
  return { summary: observeSummary(state), rendering: observeRendering(state, snapshot, request, needs), ...(whole ? { steps: domSteps(state.available_actions) } : {}) };
}
