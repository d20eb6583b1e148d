import { evidenceKinds, evidenceLabel, humanize, isEvidence } from './labels.ts';

/**
 * Conflict codes (open set, snake_case; DESIGN §2) → one plain sentence each. Known codes and
 * the patterns the observation layer builds (`<a>_<field>_disagrees_with_<b>`,
 * `canvas_<field>_not_observed`, `<v>_interactive_elements`, …) get specific wording; anything
 * else a generic sentence that still names the code. Pure, so it is unit-tested.
 */

const EXACT: Record<string, string> = {
  screenshot_blank: 'The screenshot came out blank although the page has content, so what is drawn on screen could not be checked.',
  canvas_content_not_observed: 'Part of the page is drawn on a canvas that Steward could not read.',
  canvas_pixels_unreadable: "A canvas on the page could not be read (its pixels are protected), so what it shows wasn't checked.",
  hidden_interactive_elements: 'Some buttons or fields on the page are hidden; Steward will not act on them.',
  offscreen_interactive_elements: 'Some buttons or fields are off-screen; Steward only acts on what a person could see.',
  covered_interactive_elements: 'Some buttons or fields are covered by something else (an overlay or pop-up), so clicking them may not do what it seems.',
  zero_size_interactive_elements: 'Some buttons or fields have no size on screen (invisible to a person); Steward will not act on them.',
  state_not_observed: 'Steward could not read the state of this resource from the page.',
  adapter_state_not_observed: "Steward's mapping for this site could not find the state where it expected it.",
  adapter_resource_id_not_observed: "Steward's mapping for this site could not find the resource's id on the page.",
  legacy_actions_truncated: 'The page has more controls than Steward lists; some possible actions are not shown.',
  webmcp_tool_invalid: 'The page registered a WebMCP tool Steward could not understand; it was left out.',
  cross_origin_iframe: 'Part of the page is an embedded frame from another site that Steward cannot read.',
  closed_shadow_roots_not_visible: 'Some page components hide their contents from extensions (closed shadow roots).',
  iframe_too_deep: 'Frames nested too deeply were not read.',
  node_limit_reached: 'The page is very large; Steward stopped reading before the end.',
  capture_time_budget_exceeded: 'Reading the page took too long and was cut short; some content was not read.',
  json_ld_invalid: "The page's structured data is malformed and was ignored.",
  json_ld_too_large: "The page's structured data was too large to read.",
  json_ld_truncated: "The page's structured data was only partly read.",
  structured_data_failed: "The page's structured data could not be read.",
  element_capture_failed: 'Some elements of the page could not be read.',
  accessible_name_failed: 'Some controls have names Steward could not compute.',
  table_read_failed: 'A table on the page could not be read.',
  mutation_observer_unavailable: 'Steward cannot watch this page for changes; the state may be older than it looks.',
};

/** `dom` → `the page structure`; unknown words are just de-underscored. */
function source(word: string): string {
  return isEvidence(word) ? `the ${evidenceLabel(word)}` : humanize(word);
}

/** Field names as a person reads them: `resource_id` → `resource id`, `state` → `state`. */
function field(name: string): string {
  return humanize(name);
}

const EVIDENCE_ALT = evidenceKinds().join('|');
const DISAGREES = new RegExp(`^(${EVIDENCE_ALT})_(.+)_disagrees_with_(${EVIDENCE_ALT})$`);
const INCONSISTENT = new RegExp(`^(${EVIDENCE_ALT})_(.+)_inconsistent$`);

export function explainConflict(code: string): string {
  const exact = EXACT[code];
  if (exact) return exact;
  let m = DISAGREES.exec(code);
  if (m) return `${capitalize(source(m[1]!))} and ${source(m[3]!)} disagree about the ${field(m[2]!)}; Steward is not sure which is right.`;
  m = INCONSISTENT.exec(code);
  if (m) return `${capitalize(source(m[1]!))} shows different values for the ${field(m[2]!)} in different places.`;
  m = /^canvas_(.+)_not_observed$/.exec(code);
  if (m) return `The page draws the ${field(m[1]!)} on a canvas, which Steward could not read. Check the ${field(m[1]!)} on the page yourself.`;
  m = /^(.+)_not_observed$/.exec(code);
  if (m) return `Steward expected to see the ${field(m[1]!)} but could not find it on the page.`;
  m = /^(.+)_interactive_elements$/.exec(code);
  if (m) return `Some buttons or fields are ${humanize(m[1]!)}; Steward will not act on them.`;
  return `Steward noted a problem it has no description for: “${humanize(code)}”.`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
