import type { BridgeRequests } from '../../../src/protocol/bridge.ts';
import type { Data } from '../../../src/protocol/channel.ts';
import { domStepsLine } from '../../../src/protocol/dom-steps.ts';
import { framedText, json } from './results.ts';

/**
 * What a client's model reads from steward_observe and steward_actions (pure, so the benchmark
 * counts exactly these words): Steward's own line first — the tab, the state_version to copy into
 * preconditions, the DOM steps offered — and the page's text apart, for the untrusted frame.
 */

type ObserveData = Data<BridgeRequests, 'bridge/observe'>;
type ActionsData = Data<BridgeRequests, 'bridge/actions'>;

export interface LookText {
  /** Steward's words, outside the frame. */
  summary: string;
  /** Page-derived text, for the frame. */
  page: string;
}

/**
 * `state_version fp-…`: whole (preconditions must match it exactly) for a resource the page names
 * in a state Steward observed — what preconditions are for; otherwise (a page that is its own
 * resource, a state not observed) it is in structuredContent only. The DOM steps and their inputs
 * are in steward_execute's schema, which a client reads once, not in every look; the tab is the
 * one the client asked about.
 */
export function observeText(data: ObserveData): LookText {
  const { summary, rendering } = data;
  const known = summary.resource !== null && summary.resource.type !== 'page' && summary.state !== null && summary.state !== 'unknown';
  return { summary: known && summary.state_version !== null ? `state_version ${summary.state_version}` : '', page: rendering };
}

/**
 * steward_observe's frame has no sentence before its tags: the tool's description says page text
 * is untrusted data, once per session, not in every look (the tags still fence the page's text).
 */
export const OBSERVE_FRAME_HEADER = false;

/** The whole text of a steward_observe answer, as the client's model reads it (what the benchmark counts as a look). */
export function observeLook(data: ObserveData): string {
  const { summary, page } = observeText(data);
  return framedText(summary, page, OBSERVE_FRAME_HEADER);
}

export function actionsText(data: ActionsData, tabId: number): LookText {
  const needs = data.actions.filter((a) => a.needs_approval).length;
  const summary = `${data.actions.length} site action(s) on tab ${tabId}, ${needs} needing the person's approval in Steward's side panel; ${data.steps.length} DOM step(s). Run one with steward_execute.`;
  const lines = data.actions.map((a) => {
    const flags = [
      a.via,
      a.read_only ? 'read-only' : '',
      a.consequential ? 'consequential' : '',
      a.payment ? 'payment' : '',
      a.untrusted_content ? 'output untrusted' : '',
      a.needs_approval ? 'needs approval' : 'no approval',
    ].filter(Boolean);
    const description = a.description ? ` ${JSON.stringify(a.description)}` : '';
    return `${a.action} [${flags.join(', ')}]${description} input ${JSON.stringify(a.input_schema)}`;
  });
  for (const s of data.steps) {
    let line = domStepsLine([s.action]);
    if (s.refs.length > 0) line += ` on ${s.refs.join(' ')}`;
    if (s.needs_approval.length > 0) line += `; needs approval: ${s.needs_approval.length === s.refs.length ? 'all' : s.needs_approval.join(' ')}`;
    if (s.payment.length > 0) line += `; payment: ${s.payment.join(' ')}`;
    if (s.unbound) line += `${s.refs.length > 0 ? '; also' : ''} without a ref${s.unbound.needs_approval ? ', needs approval' : ''}`;
    lines.push(line);
  }
  return { summary, page: lines.join('\n') || json([]) };
}
