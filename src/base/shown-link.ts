/**
 * Which addresses a page shows as links (pure, no protocol types: the MCP door and the pipeline's
 * quiet-sink rules both ask it).
 */

/** What the rule reads of an observed page: its address and its elements' links. */
export interface ShownPage {
  url: string;
  elements?: ReadonlyArray<{ href?: string; visibility?: string }>;
}

/** An address as compared: parsed and serialised by the URL parser (case of scheme and host, default port, dot segments). */
export function normalUrl(url: string, base?: string): string | undefined {
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `url` is exactly a link the observed page shows (an href of an element a person can
 * see or scroll to), the page's own address, or a site's bare home page. Exact: any extra or changed query, fragment or
 * path is data the agent added.
 */
export function isShownLink(url: string, observed: ShownPage): boolean {
  const target = normalUrl(url);
  if (!target) return false;
  // A site's home page carries nothing but its origin, which the token names anyway.
  if (new URL(target).pathname === '/' && !new URL(target).search && !new URL(target).hash) return true;
  if (normalUrl(observed.url) === target) return true;
  return (observed.elements ?? []).some((e) => e.href !== undefined && e.visibility !== 'hidden' && normalUrl(e.href, observed.url) === target);
}
