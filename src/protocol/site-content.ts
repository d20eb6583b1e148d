import { isErrorResult, type ActionResult } from './results.ts';

/**
 * What of a page or a site an action's result carries, when it carries any: tool output, the
 * site's own words (effects, the page's error), what changed on the page, the actions on offer,
 * a state read from a page. Whoever hands such a result to an agent taints it (the MCP bridge's
 * execute and status, the pipeline itself). A site contract's structured answer alone — a
 * snake_case state name, a version, its declared action names, all checked by schema — is data,
 * not words, and does not (so a contract agent's "approve for N minutes" keeps working); nor does a refusal in Steward's words.
 */
export function siteContentIn(result: ActionResult): string | undefined {
  if (isErrorResult(result)) {
    if (result.error.details?.page_error) return "the page's error message";
    if (result.available_actions?.length) return 'the actions a page offers';
    if (result.current && result.current.source !== 'site_contract') return 'the state a page shows';
    return undefined;
  }
  const free = freeTextIn(result);
  if (free) return free;
  if (result.observed_changes) return 'what changed on the page';
  // A contract's state, version and declared action names: schema-checked identifiers, not prose.
  if (result.source === 'site_contract') return undefined;
  return `the state of ${result.resource.type} ${result.resource.id} and the actions a page shows`;
}

/**
 * Whether a result from a site contract's endpoint carries content the site wrote in its own
 * words (free text) rather than only structured state; results from a page always taint (the
 * runner marks them when it observes the page).
 */
function freeTextIn(result: ActionResult): string | undefined {
  if (isErrorResult(result)) return undefined;
  if (result.output) return 'tool output';
  if ((result.execution.status === 'failed' || result.execution.status === 'unknown') && result.execution.error?.details?.page_error) return "the page's error message";
  if (result.effects?.some((e) => e.description !== undefined)) return 'the site’s description of the effects';
  return undefined;
}
