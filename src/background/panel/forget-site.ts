import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, refuseSaying, type Data, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import { phrase } from '../../protocol/phrase.ts';
import type { ContractControl } from './contracts.ts';
import type { SitesControl } from './sites.ts';

/**
 * `panel/site-forget`: the person's "forget this site". Grants first (so nothing reads or acts on
 * the site while its memory goes): Steward's list and Chrome's permission, then the grant the site
 * issued under an agent contract (revoked at the site as far as it answers); then its memory and
 * one audit entry for all of it (PipelineAdmin.forgetSite).
 */
export async function forgetSite(deps: { pipeline: Pipeline; sites: SitesControl; contracts?: ContractControl }, origin: string): Promise<Reply<Data<PanelRequests, 'panel/site-forget'>>> {
  try {
    const listed = await deps.sites.overview();
    const site_removed = [...listed.allowed, ...listed.waiting].includes(origin);
    if (site_removed) await deps.sites.remove(origin);
    const grant_removed = deps.contracts ? (await deps.contracts.sites()).some((s) => new URL(s.origin).origin === origin) : false;
    if (grant_removed) await deps.contracts!.disconnect(origin);
    return ok({ site_removed, grant_removed, ...(await deps.pipeline.admin.forgetSite(origin, { site_removed, grant_removed })) });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuseSaying(phrase('forget_incomplete', { origin, error: why }), 'FORGET_INCOMPLETE', `Steward could not forget all of ${origin}: ${why}`.slice(0, 500));
  }
}
