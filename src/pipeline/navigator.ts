import { makeError, type StewardError } from '../protocol/errors.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { atOrigin, resourceMatches, resourceWords, type ResourceRef, type SiteResource } from '../protocol/resource.ts';
import { DeadlineExceeded } from '../base/deadline.ts';
import { originOf } from '../base/origin.ts';
import type { Location, PipelinePorts, PortContext, Route } from './ports.ts';

type RouteKind = 'current_tab' | Route['kind'] | 'remembered_url';

interface Attempt {
  route: RouteKind;
  url?: string;
  outcome: 'reached' | 'origin_not_allowed' | 'other_origin' | 'not_observed' | 'timed_out' | 'other_resource' | 'navigation_failed' | 'navigation_not_allowed';
  /** What was found instead, for `other_resource`. */
  found?: ResourceRef;
}

/** `resource`: what was reached, with the origin it was found on (the one every later step uses). */
export type Reached = { ok: true; observed: ObservedState; resource: SiteResource; location: Location; route: RouteKind; attempts: Attempt[] };
export type NotReached = { ok: false; error: StewardError; attempts: Attempt[] };

export interface ReachOptions {
  /** The token's origins: the navigator never goes anywhere else. */
  allowed_origins: readonly string[];
  /** Remembered URLs from memory, newest first: hints, re-verified after navigation. */
  hints: readonly string[];
  ctx: PortContext;
  /**
   * False for work nobody asked for just now (background rechecks, re-reading a dispatched action
   * after a restart): the navigator then only observes — the working tab if it already shows the
   * resource, a contract endpoint — and never loads a page into a tab the person may be using.
   */
  may_navigate?: boolean;
}

type Candidate = { kind: RouteKind; url: string };

/**
 * Which of the known routes the navigator may take (pure). A resource is `(origin, type, id)`:
 * routes on a site the request did not name are never tried. A request that names no origin is
 * for the site of the tab it was asked in when that site has a route to it; otherwise for the one
 * site that has; with routes on several sites it is ambiguous, and nothing is tried.
 */
function routesFor(resource: ResourceRef, routes: readonly Candidate[], tabOrigin: string | undefined): { routes: Candidate[]; other: Candidate[] } | { ambiguous: SiteResource[] } {
  const on = (origin: string | undefined) => (r: Candidate) => originOf(r.url) === origin;
  const split = (origin: string | undefined) => ({ routes: routes.filter(on(origin)), other: routes.filter((r) => !on(origin)(r)) });
  if (resource.origin !== undefined) return split(resource.origin);
  if (tabOrigin !== undefined && routes.some(on(tabOrigin))) return split(tabOrigin);
  const origins = [...new Set(routes.map((r) => originOf(r.url)).filter((o): o is string => o !== undefined))];
  if (origins.length > 1) return { ambiguous: origins.map((origin) => atOrigin(resource, origin)) };
  return split(origins[0]);
}

/** The refusal for a request that could mean a resource on more than one site. */
function ambiguousResource(resource: ResourceRef, candidates: readonly SiteResource[]): StewardError {
  return makeError(
    'AMBIGUOUS_RESOURCE',
    `${resourceWords(resource)} exists on ${candidates.length} sites (${candidates.map((c) => c.origin).join(', ')}); the request names none and its tab is on none of them, so Steward did not choose. Nothing was sent.`,
    { details: { reason: 'ambiguous_resource', candidates: candidates.map((c) => ({ origin: c.origin, type: c.type, id: c.id })) } },
  );
}

/**
 * Step 4, goal navigator: reaches the resource through the resource/action graph, in order: the
 * working tab if it already shows the resource; a site contract's resource endpoint; an adapter's
 * URL template; remembered URLs. Every route is verified by observing what it leads to: a URL or
 * tab is never trusted to still show what it once did. Page routes load the URL into the working
 * tab, so they are skipped unless the caller may navigate (`may_navigate`).
 */
export async function reachResource(ports: Pick<PipelinePorts, 'observe' | 'navigate' | 'routes'>, resource: ResourceRef, opts: ReachOptions): Promise<Reached | NotReached> {
  const attempts: Attempt[] = [];
  const tab: Location = { kind: 'tab' };
  /** The site the working tab showed when first looked at: a request naming no origin is for it. */
  let tabOrigin: string | undefined;
  const verify = async (route: RouteKind, where: Location, url?: string): Promise<Reached | undefined> => {
    // A tab that crashed or an endpoint that failed is a route that did not lead there.
    let timedOut = false;
    const observed = await ports.observe(where, resource, opts.ctx).catch((error: unknown) => {
      timedOut = error instanceof DeadlineExceeded;
      return null;
    });
    const base = { route, ...(url ? { url } : {}) };
    if (!observed) {
      attempts.push({ ...base, outcome: timedOut ? 'timed_out' : 'not_observed' });
      return undefined;
    }
    // What is there, on the site it is on: a resource of another site is another resource.
    const siteOf = originOf(observed.url);
    if (route === 'current_tab') tabOrigin = siteOf;
    const found: ResourceRef = siteOf ? atOrigin(observed.resource, siteOf) : { type: observed.resource.type, id: observed.resource.id };
    if (!siteOf || !resourceMatches(resource, found)) {
      attempts.push({ ...base, outcome: 'other_resource', found });
      return undefined;
    }
    attempts.push({ ...base, outcome: 'reached' });
    return { ok: true, observed, resource: atOrigin(resource, siteOf), location: where, route, attempts };
  };

  const here = await verify('current_tab', tab);
  if (here) return here;

  const known: Candidate[] = [...((await ports.routes?.(resource, opts.ctx)) ?? []), ...opts.hints.map((url) => ({ kind: 'remembered_url' as const, url }))];
  // Routes the token does not allow are never candidates: they cannot make a request ambiguous.
  const allowedRoutes = known.filter((route) => {
    const origin = originOf(route.url);
    if (origin && opts.allowed_origins.includes(origin)) return true;
    attempts.push({ route: route.kind, url: route.url, outcome: 'origin_not_allowed' });
    return false;
  });
  const chosen = routesFor(resource, allowedRoutes, tabOrigin);
  if ('ambiguous' in chosen) return { ok: false, attempts, error: ambiguousResource(resource, chosen.ambiguous) };
  for (const route of chosen.other) attempts.push({ route: route.kind, url: route.url, outcome: 'other_origin' });
  const routes = chosen.routes;
  const tried = new Set<string>();
  for (const route of routes) {
    const key = `${route.kind === 'site_contract' ? 'c' : 'p'}|${route.url}`;
    if (tried.has(key)) continue;
    tried.add(key);
    if (route.kind === 'site_contract') {
      const r = await verify(route.kind, { kind: 'contract', url: route.url }, route.url);
      if (r) return r;
      continue;
    }
    if (opts.may_navigate === false) {
      attempts.push({ route: route.kind, url: route.url, outcome: 'navigation_not_allowed' });
      continue;
    }
    try {
      await ports.navigate(route.url, opts.ctx, opts.allowed_origins);
    } catch {
      attempts.push({ route: route.kind, url: route.url, outcome: 'navigation_failed' });
      continue;
    }
    const r = await verify(route.kind, tab, route.url);
    if (r) return r;
  }

  const what = resourceWords(resource);
  if (attempts.some((a) => a.outcome === 'timed_out')) {
    return {
      ok: false,
      attempts,
      error: makeError('TIMEOUT', `Steward could not observe ${what}: the page did not answer in time. Nothing was dispatched.`, {
        retryable: true,
        recovery_hint: 'Nothing took effect; retry with the same idempotency key once the page responds again (reload it if it stays stuck).',
        details: { reason: 'observation_timed_out', attempts },
      }),
    };
  }
  return {
    ok: false,
    attempts,
    error: makeError('TOOL_NOT_FOUND', `Steward could not reach ${what}: ${routes.length === 0 ? 'no route to it is known' : `none of ${routes.length} known route(s) led to it`}.`, {
      recovery_hint: `Open the page that shows ${what} in the agent's tab, or check the resource id, then resubmit.`,
      details: { reason: 'resource_not_reachable', attempts },
    }),
  };
}
