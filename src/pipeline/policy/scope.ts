import type { Source } from '../../protocol/resource.ts';
import { isDomAction } from '../../protocol/action-name.ts';

/**
 * Which token scope an action needs (DESIGN §4, scope entries are `<namespace>:<verb>`):
 *
 * | action                         | via                         | required scope            |
 * |--------------------------------|-----------------------------|---------------------------|
 * | `orders.cancel`                | site_contract, adapter      | `orders:cancel`           |
 * | `book_appointment` (any name)  | webmcp                      | `webmcp:book_appointment` |
 * | `dom.click`, `nav.goto`, …     | legacy_inference            | `dom:click`, `nav:goto`   |
 * | `cancel` (no namespace)        | site_contract / adapter     | `site_contract:cancel` / `adapter:cancel` |
 *
 * WebMCP tools are scoped by tool name, not by origin: the origin is the token's separate
 * `origins` list, so `webmcp:book_appointment` on a token for http://localhost:4101 covers that
 * tool on that origin only. A tool is always `webmcp:<name>` even if its name has a dot, so a
 * page cannot name a tool `orders.cancel` to borrow a contract scope.
 *
 * Wildcards in granted scopes: `orders:*` (every verb of a namespace), `*:read` (a verb in every
 * namespace), `*:*` (everything). A wildcard never appears in a required scope.
 */
export function requiredScope(action: string, via: Source): string {
  if (via === 'webmcp') return `webmcp:${action}`;
  if (isDomAction(action)) return action.replace('.', ':');
  const dot = action.indexOf('.');
  if (dot > 0) return `${action.slice(0, dot)}:${action.slice(dot + 1)}`;
  return `${via}:${action}`;
}

export function scopeCovers(granted: readonly string[], required: string): boolean {
  const colon = required.indexOf(':');
  const ns = required.slice(0, colon);
  const verb = required.slice(colon + 1);
  return granted.some((g) => {
    const c = g.indexOf(':');
    if (c < 0) return false;
    const gns = g.slice(0, c);
    const gverb = g.slice(c + 1);
    return (gns === '*' || gns === ns) && (gverb === '*' || gverb === verb);
  });
}
