import { parseOrError } from '../../protocol/validate.ts';
import type { PageSnapshot } from '../../protocol/snapshot.ts';
import { Adapter } from './format.ts';
import { matchAdapter } from './match.ts';

/**
 * The adapters Steward knows: shipped ones and user-added ones. Every definition is validated on
 * the way in; a bad one is refused with the reason, never half-loaded.
 */
export class AdapterRegistry {
  private readonly adapters = new Map<string, Adapter>();

  /** Adds or replaces an adapter. `origin` pins it to one origin (e.g. the port a demo site got). */
  register(definition: unknown, options: { origin?: string } = {}): { ok: true; adapter: Adapter } | { ok: false; error: string } {
    const withOrigin =
      options.origin && typeof definition === 'object' && definition !== null ? { ...definition, match: { ...(definition as { match?: object }).match, origins: [options.origin] } } : definition;
    const parsed = parseOrError(Adapter, withOrigin);
    if (!parsed.ok) return { ok: false, error: parsed.error.message };
    this.adapters.set(parsed.value.id, parsed.value);
    return { ok: true, adapter: parsed.value };
  }

  remove(id: string): boolean {
    return this.adapters.delete(id);
  }

  list(): Adapter[] {
    return [...this.adapters.values()];
  }

  /** Adapters that apply to this page (origin, path and marker). */
  forSnapshot(snapshot: PageSnapshot): Adapter[] {
    return this.list().filter((a) => matchAdapter(a, snapshot) !== undefined);
  }
}
