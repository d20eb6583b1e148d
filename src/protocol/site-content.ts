import { phrase, type Phrase, type SiteContentKind } from './phrase.ts';
import { isErrorResult, type ActionResult } from './results.ts';

/**
 * What of a page or a site an action's result carries, when it carries any: tool output, the
 * site's own words (effects, the page's error), what changed on the page, the actions on offer,
 * a state read from a page. Whoever hands such a result to an agent taints it (the MCP bridge's
 * execute and status, the pipeline itself). A site contract's structured answer alone — a
 * snake_case state name, a version, its declared action names, all checked by schema — is data,
 * not words, and does not (so a contract agent's "approve for N minutes" keeps working); nor does a refusal in Steward's words.
 */
/** Page content a result carries: its English (the taint's source, in the audit) and its kind, for the panel's words (phrase.ts). */
export interface SiteContent {
  text: string;
  kind: SiteContentKind;
  resource?: { type: string; id: string };
}

const content = (kind: SiteContentKind, text: string, resource?: { type: string; id: string }): SiteContent => ({ text, kind, ...(resource ? { resource } : {}) });

export function siteContentIn(result: ActionResult): SiteContent | undefined {
  if (isErrorResult(result)) {
    if (result.error.details?.page_error) return content('page_error', "the page's error message");
    if (result.available_actions?.length) return content('page_actions', 'the actions a page offers');
    if (result.current && result.current.source !== 'site_contract') return content('page_state', 'the state a page shows');
    return undefined;
  }
  const free = freeTextIn(result);
  if (free) return free;
  if (result.observed_changes) return content('page_changes', 'what changed on the page');
  // A contract's state, version and declared action names: schema-checked identifiers, not prose.
  if (result.source === 'site_contract') return undefined;
  const { type, id } = result.resource;
  return content('resource_state', `the state of ${type} ${id} and the actions a page shows`, { type, id });
}

/** The phrase for what reached an agent: in a result the pipeline returned, or one the MCP bridge returned. */
export function siteContentSaid(c: SiteContent, throughBridge: boolean): Phrase {
  const values = { kind: c.kind, ...(c.resource ? { type: c.resource.type, id: c.resource.id } : {}) };
  return throughBridge ? phrase('taint_bridge_content', values) : phrase('taint_content', values);
}

/**
 * Whether a result from a site contract's endpoint carries content the site wrote in its own
 * words (free text) rather than only structured state; results from a page always taint (the
 * runner marks them when it observes the page).
 */
function freeTextIn(result: ActionResult): SiteContent | undefined {
  if (isErrorResult(result)) return undefined;
  if (result.output) return content('tool_output', 'tool output');
  if ((result.execution.status === 'failed' || result.execution.status === 'unknown') && result.execution.error?.details?.page_error) return content('page_error', "the page's error message");
  if (result.effects?.some((e) => e.description !== undefined)) return content('effects', 'the site’s description of the effects');
  return undefined;
}
