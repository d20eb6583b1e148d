import type { Adapter } from '../../observation/adapters/index.ts';
import type { ResourceRef } from '../../protocol/resource.ts';
import type { Route } from '../../pipeline/ports.ts';

/**
 * Adapter URL templates as routes to a resource (DESIGN §5 step 4): an adapter for `order` pages
 * at `/orders/:id`, whose id is that URL group, reaches `order:ORD-1024` at `<origin>/orders/ORD-1024`.
 * Origins are the adapter's pinned ones, or those where Steward has seen it match (memory only).
 * The navigator checks each route against the token's origins and verifies where it leads.
 */
export class AdapterRoutes {
  private readonly seen = new Map<string, Set<string>>();

  constructor(private readonly adapters: () => readonly Adapter[]) {}

  /** An observation matched these adapters on this origin. */
  sighted(adapterIds: readonly string[], url: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return;
    }
    for (const id of adapterIds) {
      const set = this.seen.get(id) ?? new Set();
      set.add(origin);
      this.seen.set(id, set);
    }
  }

  routes(resource: ResourceRef): Route[] {
    const out: Route[] = [];
    for (const a of this.adapters()) {
      if (a.resource.type !== resource.type) continue;
      const read = a.resource.id.read;
      if (read.from !== 'url_group') continue;
      const path = fill(a.match.path, read.group, resource.id);
      if (!path) continue;
      for (const origin of [...(a.match.origins ?? []), ...(this.seen.get(a.id) ?? [])])
        if (resource.origin === undefined || origin === resource.origin) out.push({ kind: 'adapter', url: `${origin}${path}` });
    }
    return out;
  }
}

/** `/orders/:id` with id → `/orders/ORD-1024`; undefined when other groups or wildcards remain. */
function fill(pattern: string, group: string, value: string): string | undefined {
  const parts = pattern.split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/);
  let out = '';
  for (const part of parts) {
    if (part === '*') return undefined;
    if (part.startsWith(':')) {
      if (part.slice(1) !== group) return undefined;
      out += encodeURIComponent(value);
    } else out += part;
  }
  return out;
}
