import type { AuditGroup } from './audit-groups.ts';

/**
 * A client's visits: what Activity infers when the log records no session for a client's actions.
 * A 2026-07-28 HTTP client has no session to record (that protocol revision removed them, and
 * nothing in a request names a conversation: its `_meta` carries the protocol version, the client's
 * name and capabilities, and optional W3C trace context, which names a trace, not a conversation),
 * and entries from before sessions were recorded have none either. Without this, such a client's
 * actions would all land in one group forever. Pure.
 */

/**
 * Quiet this long between a client's actions, and what follows is a new visit. Within one
 * conversation an agent calls again within seconds or minutes (reading the page, thinking, waiting
 * on the person's approval, which stays inside one action's span); half an hour without a call is
 * the person doing something else, the same inactivity limit web analytics uses for a visit.
 */
const VISIT_GAP_MS = 30 * 60_000;

const startOf = (g: AuditGroup): number => g.steps[0]?.seq ?? g.last_seq;

/**
 * One client's groups (in any order) split into visits, oldest first, each oldest group first: a new
 * visit when a group starts more than VISIT_GAP_MS after everything before it in the visit ended (an
 * action still waiting while the next one starts keeps the visit open). Times the log cannot read
 * never split one.
 */
export function splitVisits(groups: readonly AuditGroup[]): AuditGroup[][] {
  const visits: AuditGroup[][] = [];
  let current: AuditGroup[] = [];
  let endedAt = Number.NEGATIVE_INFINITY;
  for (const g of [...groups].sort((a, b) => startOf(a) - startOf(b))) {
    const quiet = Date.parse(g.first_at) - endedAt;
    if (current.length > 0 && Number.isFinite(quiet) && quiet > VISIT_GAP_MS) {
      visits.push(current);
      current = [];
      endedAt = Number.NEGATIVE_INFINITY;
    }
    current.push(g);
    const ended = Date.parse(g.last_at);
    if (ended > endedAt) endedAt = ended;
  }
  if (current.length > 0) visits.push(current);
  return visits;
}
