import type { PageSnapshot } from '../../protocol/snapshot.ts';
import type { Adapter } from './format.ts';
import { compilePath } from './path-pattern.ts';

/** Does an adapter apply to this page: origin (if fixed), path pattern, and site marker. */

export interface AdapterMatch {
  groups: Record<string, string>;
}

function markerPresent(adapter: Adapter, snapshot: PageSnapshot): boolean {
  const marker = adapter.match.marker;
  if (!marker) return true;
  if (marker.title && !new RegExp(marker.title, 'i').test(snapshot.title)) return false;
  if (marker.text) {
    const re = new RegExp(marker.text, 'i');
    if (!snapshot.texts.some((t) => re.test(t.text))) return false;
  }
  if (marker.json_ld_type && !snapshot.structuredData.some((d) => d.type === marker.json_ld_type || d.data['@type'] === marker.json_ld_type)) return false;
  return true;
}

export function matchAdapter(adapter: Adapter, snapshot: PageSnapshot): AdapterMatch | undefined {
  let url: URL;
  try {
    url = new URL(snapshot.url);
  } catch {
    return undefined;
  }
  if (adapter.match.origins && !adapter.match.origins.includes(url.origin)) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname;
  }
  const m = compilePath(adapter.match.path).exec(path);
  if (!m || !markerPresent(adapter, snapshot)) return undefined;
  return { groups: { ...(m.groups ?? {}) } };
}
