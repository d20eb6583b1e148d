import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, refuseSaying, type Handlers, type Reply } from '../../protocol/channel.ts';
import { phrase } from '../../protocol/phrase.ts';
import type { PanelPush, PanelRequests } from '../../protocol/panel-channel.ts';
import type { ObservationService } from '../observation/service.ts';
import type { SessionTabs } from '../core/sessions.ts';
import type { ObserveOutcome } from '../ports/tab-observer.ts';
import type { ToolStore } from '../tools/store.ts';
import type { PanelRunRequest } from '../tools/run-from-panel.ts';
import type { ToolRunOutcome } from '../../protocol/webmcp.ts';
import type { RunManager } from '../copilot/run-manager.ts';
import { observeForPanel, submitAsAgent } from './agent.ts';
import { decideApproval, listApprovals } from './approvals.ts';
import { changeSite, listSites, type SitesControl } from './sites.ts';
import { clearTaint, listTokens, mintToken, revokeToken } from './tokens.ts';
import type { PairingControl } from './pairings.ts';
import type { ContractControl } from './contracts.ts';
import type { AuditExportControl } from '../audit-export/wire-export.ts';
import type { AuditRetentionSetting } from '../pipeline/audit-retention.ts';
import { clearAudit, setRetention } from './audit-keeping.ts';
import { forgetSite } from './forget-site.ts';

/**
 * The worker's side of the panel channel (src/protocol/panel-channel.ts): one handler per
 * request. The sender was checked before (src/background/core/channels.ts) and the payload parsed;
 * what needs the pipeline waits until it has recovered.
 */
export interface PanelChannelDeps {
  tools: Pick<ToolStore, 'ready' | 'registry'>;
  observation: ObservationService;
  /** `panel/run-tool`: the person's Run, through the pipeline (src/background/tools/run-from-panel.ts). */
  runTool?: (request: PanelRunRequest) => Promise<ToolRunOutcome>;
  ready: () => Promise<Pipeline>;
  sessions: Pick<SessionTabs, 'sessionFor'>;
  observeTab: (tabId: number) => Promise<ObserveOutcome>;
  push: (message: PanelPush) => void;
  sites: SitesControl;
  /** The co-pilot's runs (src/background/copilot/); without it every copilot/* request is refused. */
  copilot?: Pick<RunManager, 'start' | 'pause' | 'resume' | 'stop' | 'takeOver' | 'answer' | 'runs' | 'setKey' | 'modelStatus' | 'checkModel'>;
  /** MCP clients pairing through the bridge (src/background/mcp/); without it pairing is refused. */
  pairings?: PairingControl;
  /** Sites with an agent contract (src/background/contract/). */
  contracts?: ContractControl;
  /** The audit export to the organisation's collector (src/background/audit-export/). */
  auditExport?: AuditExportControl;
  /** How many days of audit the person keeps (chrome.storage.local); without it the setting is refused. */
  retention?: AuditRetentionSetting;
}

/** What this worker was built without, in the English the refusal has always said. */
const UNAVAILABLE = {
  copilot: 'The co-pilot is not available here.',
  tools: 'Tools run only through the pipeline, which is not wired here.',
  retention: 'The retention setting is not available here.',
  bridge: 'The MCP bridge is not available here.',
  audit_export: 'The audit export is not available here.',
  contracts: 'Site contracts are not available here.',
} as const;

/** NOT_READY for a part this worker was built without (a test's or a reduced composition). */
const unavailable = (part: keyof typeof UNAVAILABLE) => refuseSaying(phrase('unavailable', { part }), 'NOT_READY', UNAVAILABLE[part]);

type CopilotHandlers = Pick<PanelHandlers, Extract<keyof PanelHandlers, `copilot/${string}`>>;

function copilotHandlers(copilot: PanelChannelDeps['copilot']): CopilotHandlers {
  if (!copilot) {
    const notWired = () => unavailable('copilot');
    return {
      'copilot/start': notWired,
      'copilot/pause': notWired,
      'copilot/resume': notWired,
      'copilot/stop': notWired,
      'copilot/take-over': notWired,
      'copilot/answer': notWired,
      'copilot/runs': notWired,
      'copilot/set-key': notWired,
      'copilot/model-status': notWired,
      'copilot/check-model': notWired,
    };
  }
  return {
    'copilot/start': (m) => copilot.start(m),
    'copilot/pause': (m) => copilot.pause(m),
    'copilot/resume': (m) => copilot.resume(m),
    'copilot/stop': (m) => copilot.stop(m),
    'copilot/take-over': (m) => copilot.takeOver(m),
    'copilot/answer': (m) => copilot.answer(m),
    'copilot/runs': (m) => copilot.runs(m),
    'copilot/set-key': (m) => copilot.setKey(m),
    'copilot/model-status': async () => ok(await copilot.modelStatus()),
    'copilot/check-model': async () => ok(await copilot.checkModel()),
  };
}

export type PanelHandlers = Handlers<PanelRequests, void>;

export function createPanelChannel(deps: PanelChannelDeps): PanelHandlers {
  /** Runs `use` once the pipeline is ready; NOT_READY (retryable) when its store cannot be opened. */
  async function withPipeline<T>(use: (pipeline: Pipeline) => Promise<Reply<T>>): Promise<Reply<T>> {
    let pipeline: Pipeline;
    try {
      pipeline = await deps.ready();
    } catch (error) {
      return refuseSaying(phrase('store_unopened', { error: String(error) }), 'NOT_READY', `Steward's store could not be opened: ${String(error)}`, true);
    }
    return use(pipeline);
  }

  /** Tells open panels what changed, when it did. */
  const pushing =
    (...pushes: PanelPush[]) =>
    <T>(reply: Reply<T>): Reply<T> => {
      if (reply.ok) for (const p of pushes) deps.push(p);
      return reply;
    };
  const tokensChanged = pushing({ type: 'panel/tokens-changed' }, { type: 'panel/audit-changed' });
  const sitesChanged = pushing({ type: 'panel/sites-changed' });
  const memoryChanged = pushing({ type: 'panel/memory-changed' }, { type: 'panel/audit-changed' });
  const auditChanged = pushing({ type: 'panel/audit-changed' }, { type: 'panel/audit-export-changed' });

  return {
    'panel/get-tab-tools': async ({ tabId }) => {
      await deps.tools.ready;
      return ok({ frames: deps.tools.registry.tab(tabId) });
    },
    'panel/run-tool': async (request) => {
      if (!deps.runTool) return unavailable('tools');
      return ok(await deps.runTool(request));
    },
    'panel/snapshot-tab': ({ tabId, full }) => deps.observation.observeTab(tabId, { full: full === true }),
    'panel/query-tab': ({ tabId, query, documentToken }) => deps.observation.queryTab(tabId, query, documentToken),
    'panel/observe-tab': (m) => withPipeline(() => observeForPanel(deps.observeTab, m)),
    'panel/approvals': () => withPipeline((p) => listApprovals(p)),
    'panel/approval-decide': (m) => withPipeline((p) => decideApproval(p, m)),
    'panel/tokens': (m) => withPipeline((p) => listTokens(p, m)),
    'panel/token-mint': (m) => withPipeline(async (p) => tokensChanged(await mintToken(p, m))),
    'panel/token-revoke': (m) => withPipeline(async (p) => tokensChanged(await revokeToken(p, m))),
    'panel/taint-clear': (m) => withPipeline(async (p) => tokensChanged(await clearTaint(p, m))),
    // Read-only views of the audit log's hash chain.
    'panel/audit': ({ limit }) => withPipeline(async (p) => ok({ entries: await p.admin.auditEntries(limit) })),
    'panel/audit-verify': () => withPipeline(async (p) => ok(await p.admin.verifyAudit())),
    'panel/audit-export': () => withPipeline(async (p) => ok({ jsonl: await p.admin.exportAudit() })),
    'panel/audit-verify-export': ({ jsonl }) => withPipeline(async (p) => ok(await p.admin.verifyAuditExport(jsonl))),
    // What Steward keeps: removals leave a recorded chain start, so what remains still verifies.
    'panel/audit-retention': async () => (deps.retention ? ok({ days: await deps.retention.days() }) : unavailable('retention')),
    'panel/audit-retention-set': (m) => {
      const retention = deps.retention;
      if (!retention) return unavailable('retention');
      return withPipeline(async (p) => auditChanged(await setRetention(p, retention, m)));
    },
    'panel/audit-clear': () => withPipeline(async (p) => auditChanged(await clearAudit(p))),
    'panel/memory': () => withPipeline(async (p) => ok({ entries: await p.admin.memoryEntries() })),
    'panel/memory-delete': ({ id }) => withPipeline(async (p) => memoryChanged(ok(await p.admin.deleteMemory(id)))),
    'panel/site-forget': ({ origin }) =>
      withPipeline(async (p) => {
        const reply = await forgetSite({ pipeline: p, sites: deps.sites, ...(deps.contracts ? { contracts: deps.contracts } : {}) }, origin);
        // Part of it may have happened even when a later step failed: every view looks again.
        for (const type of ['panel/sites-changed', 'panel/contracts-changed', 'panel/memory-changed', 'panel/audit-changed'] as const) deps.push({ type });
        return reply;
      }),
    // Site access does not depend on the pipeline's store.
    'panel/sites': ({ tabId }) => listSites(deps.sites, tabId),
    'panel/site-allow': async ({ origin }) => sitesChanged(await changeSite(deps.sites, 'allow', origin)),
    'panel/site-remove': async ({ origin }) => sitesChanged(await changeSite(deps.sites, 'remove', origin)),
    'panel/pairings': async () => (deps.pairings ? ok({ pending: await deps.pairings.pending() }) : unavailable('bridge')),
    'panel/pairing-decide': async (m) => {
      if (!deps.pairings) return unavailable('bridge');
      const reply = await deps.pairings.decide(m);
      deps.push({ type: 'panel/pairings-changed' });
      if (reply.ok && reply.data.status === 'paired') tokensChanged(reply);
      return reply;
    },
    'panel/pairings-refuse-source': async ({ source }) => {
      if (!deps.pairings) return unavailable('bridge');
      const refused = await deps.pairings.refuseSource(source);
      deps.push({ type: 'panel/pairings-changed' });
      return ok(refused);
    },
    'panel/bridge-status': async () =>
      deps.pairings ? ok(await deps.pairings.status()) : ok({ connected: false, problem: UNAVAILABLE.bridge, problem_said: phrase('unavailable', { part: 'bridge' }) }),
    'panel/audit-export-status': async () => (deps.auditExport ? ok(await deps.auditExport.status()) : unavailable('audit_export')),
    'panel/audit-export-target': async ({ target }) => {
      if (!deps.auditExport) return unavailable('audit_export');
      const status = await deps.auditExport.setTarget(target);
      deps.push({ type: 'panel/audit-changed' });
      return ok(status);
    },
    'panel/contract-site': async (m) => (deps.contracts ? ok({ site: await deps.contracts.siteForTab(m.tabId) }) : ok({ site: null })),
    'panel/contract-sites': async () => ok({ sites: deps.contracts ? await deps.contracts.sites() : [] }),
    'panel/contract-connect': async (m) => {
      if (!deps.contracts) return unavailable('contracts');
      const reply = await deps.contracts.connect(m);
      deps.push({ type: 'panel/contracts-changed' });
      return ok(reply);
    },
    'panel/contract-disconnect': async (m) => {
      if (!deps.contracts) return unavailable('contracts');
      const reply = await deps.contracts.disconnect(m.origin);
      deps.push({ type: 'panel/contracts-changed' });
      return ok(reply);
    },
    'agent/submit': (m) =>
      withPipeline(async (p) => {
        const reply = await submitAsAgent(p, deps.sessions, m);
        deps.push({ type: 'panel/audit-changed' });
        return reply;
      }),
    ...copilotHandlers(deps.copilot),
  };
}
