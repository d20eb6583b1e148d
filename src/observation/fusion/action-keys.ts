import type { AvailableActionInput } from '../../protocol/action.ts';
import type { SnapshotElement } from '../../protocol/snapshot.ts';
import { canonicalJson } from '../../base/canonical-json.ts';
import { fnv1a64 } from '../../base/hash.ts';
import { isCarouselControl } from './page-values.ts';

/**
 * The action set as the fingerprint sees it: what can be done, not where it sits. Legacy
 * controls count by role and name whether they are in view or scrolled away or momentarily
 * covered (scrolling must not change the version); focus, typed values and boxes never count.
 * Links do not count: navigation changes no resource, and rotating banners and ads are links;
 * nor do a carousel's slide pickers, which rotate with its slides.
 */
export function actionKeys(elements: readonly SnapshotElement[], declared: readonly AvailableActionInput[]): string[] {
  const keys: string[] = [];
  for (const e of elements) {
    if (e.role === 'link' || e.visibility === 'hidden' || e.visibility === 'zero_size' || isCarouselControl(e.name)) continue;
    keys.push(`dom:${e.role}:${e.name.trim().slice(0, 120)}${e.states.includes('disabled') ? ':disabled' : ''}`);
  }
  for (const a of declared) {
    if (a.via === 'legacy_inference') continue;
    // A tool whose schema or risk changes is a different action.
    keys.push(`${a.via}:${a.action}:${fnv1a64(canonicalJson([a.input_schema, a.read_only, a.consequential, a.payment ?? false]))}`);
  }
  return keys;
}
