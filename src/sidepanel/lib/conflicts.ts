import { t } from '../../base/i18n.ts';
import { evidenceKinds, evidenceLabel, humanize, isEvidence } from './labels.ts';

/**
 * Conflict codes (open set, snake_case; DESIGN §2) → one plain sentence each, in the person's
 * language (the catalogue's `conflict_…`). Known codes and
 * the patterns the observation layer builds (`<a>_<field>_disagrees_with_<b>`,
 * `canvas_<field>_not_observed`, `<v>_interactive_elements`, …) get specific wording; anything
 * else a generic sentence that still names the code. Pure, so it is unit-tested.
 */

/** Codes with a sentence of their own in the catalogue (`conflict_<code>`). */
const EXACT = [
  'screenshot_blank',
  'canvas_content_not_observed',
  'canvas_pixels_unreadable',
  'hidden_interactive_elements',
  'offscreen_interactive_elements',
  'covered_interactive_elements',
  'zero_size_interactive_elements',
  'state_not_observed',
  'adapter_state_not_observed',
  'adapter_resource_id_not_observed',
  'legacy_actions_truncated',
  'webmcp_tool_invalid',
  'cross_origin_iframe',
  'closed_shadow_roots_not_visible',
  'iframe_too_deep',
  'node_limit_reached',
  'capture_time_budget_exceeded',
  'json_ld_invalid',
  'json_ld_too_large',
  'json_ld_truncated',
  'structured_data_failed',
  'element_capture_failed',
  'accessible_name_failed',
  'table_read_failed',
  'mutation_observer_unavailable',
] as const;

const isExact = (code: string): code is (typeof EXACT)[number] => (EXACT as readonly string[]).includes(code);

/** `dom` → `the page structure`; unknown words are just de-underscored. */
function source(word: string): string {
  return isEvidence(word) ? t('conflict_source', evidenceLabel(word)) : humanize(word);
}

/** Field names as a person reads them: `resource_id` → `resource id`, `state` → `state`. */
function field(name: string): string {
  return humanize(name);
}

const EVIDENCE_ALT = evidenceKinds().join('|');
const DISAGREES = new RegExp(`^(${EVIDENCE_ALT})_(.+)_disagrees_with_(${EVIDENCE_ALT})$`);
const INCONSISTENT = new RegExp(`^(${EVIDENCE_ALT})_(.+)_inconsistent$`);

export function explainConflict(code: string): string {
  if (isExact(code)) return t(`conflict_${code}`);
  let m = DISAGREES.exec(code);
  if (m) return t('conflict_disagrees', capitalize(source(m[1]!)), source(m[3]!), field(m[2]!));
  m = INCONSISTENT.exec(code);
  if (m) return t('conflict_inconsistent', capitalize(source(m[1]!)), field(m[2]!));
  m = /^canvas_(.+)_not_observed$/.exec(code);
  if (m) return t('conflict_canvas_field', field(m[1]!));
  m = /^(.+)_not_observed$/.exec(code);
  if (m) return t('conflict_not_observed', field(m[1]!));
  m = /^(.+)_interactive_elements$/.exec(code);
  if (m) return t('conflict_interactive', humanize(m[1]!));
  return t('conflict_unknown', humanize(code));
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
