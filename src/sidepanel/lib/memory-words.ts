import type { DurableMemoryRecord } from '../../protocol/memory.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import type { Data } from '../../protocol/channel.ts';

const KIND_WORDS: Record<DurableMemoryRecord['kind'], string> = {
  unfinished_intent: 'Unfinished task',
  resource_id: 'Where it was found',
  artifact: 'Something produced',
  audit_reference: 'Past action',
  granted_permission: 'Permission',
  preference: 'Preference',
  state_snapshot: 'Last seen state',
};

/** One memory entry as the person reads it: what kind, about what, on which site, and the one detail that says most. */
export function memoryWords(r: DurableMemoryRecord): { title: string; detail: string } {
  const about = r.resource ? `${r.resource.type} ${r.resource.id}${r.resource.origin ? ` on ${hostOf(r.resource.origin)}` : ''}` : 'no particular resource';
  const p = r.payload as Record<string, unknown>;
  const detail =
    typeof p.url_hint === 'string'
      ? p.url_hint
      : typeof p.action === 'string'
        ? `${p.action}${typeof p.outcome === 'string' ? `: ${p.outcome}` : ''}`
        : p.state !== undefined
          ? `state ${JSON.stringify(p.state).slice(0, 120)}`
          : JSON.stringify(p).slice(0, 160);
  return { title: `${KIND_WORDS[r.kind]} — ${about}`, detail };
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** What "forget this site" did, in a sentence. */
export function forgetWords(origin: string, r: Data<PanelRequests, 'panel/site-forget'>): string {
  const done = [
    r.site_removed ? 'its access removed (Steward’s list and Chrome’s permission)' : undefined,
    r.grant_removed ? 'its agent-contract grant revoked' : undefined,
    `${r.memory_removed} memory entr${r.memory_removed === 1 ? 'y' : 'ies'} deleted`,
  ].filter(Boolean);
  const taint = r.tainted_agents.length
    ? ` Page content from it already reached ${r.tainted_agents.join(', ')}: their actions still need your approval one by one until you clear that in Tokens.`
    : '';
  return `Forgot ${origin}: ${done.join(', ')}. Recorded in Activity.${taint}`;
}
