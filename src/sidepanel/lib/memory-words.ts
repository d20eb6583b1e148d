import { pluralOf, t } from '../../base/i18n.ts';
import type { DurableMemoryRecord } from '../../protocol/memory.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import type { Data } from '../../protocol/channel.ts';

/** What kind of memory an entry is, in words (`Where it was found`). */
const kindWords = (kind: DurableMemoryRecord['kind']): string => t(`keeping_memory_kind_${kind}`);

/** One memory entry as the person reads it: what kind, about what, on which site, and the one detail that says most. */
export function memoryWords(r: DurableMemoryRecord): { title: string; detail: string } {
  const about = r.resource
    ? r.resource.origin
      ? t('keeping_memory_about_on', r.resource.type, r.resource.id, hostOf(r.resource.origin))
      : `${r.resource.type} ${r.resource.id}`
    : t('keeping_memory_no_resource');
  const p = r.payload as Record<string, unknown>;
  const detail =
    typeof p.url_hint === 'string'
      ? p.url_hint
      : typeof p.action === 'string'
        ? `${p.action}${typeof p.outcome === 'string' ? `: ${p.outcome}` : ''}`
        : p.state !== undefined
          ? t('keeping_memory_state', JSON.stringify(p.state).slice(0, 120))
          : JSON.stringify(p).slice(0, 160);
  return { title: `${kindWords(r.kind)} — ${about}`, detail };
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
    r.site_removed ? t('keeping_forget_site_removed') : undefined,
    r.grant_removed ? t('keeping_forget_grant_removed') : undefined,
    pluralOf(r.memory_removed) === 'one' ? t('keeping_forget_memory_one', r.memory_removed) : t('keeping_forget_memory_other', r.memory_removed),
  ].filter(Boolean);
  const forgot = t('keeping_forgot', origin, done.join(', '));
  return r.tainted_agents.length ? `${forgot} ${t('keeping_forgot_tainted', r.tainted_agents.join(', '))}` : forgot;
}
