import { createAgentCalls } from '../../mcp/agent-calls.ts';
import type { AuditExportResult } from '../../protocol/audit-export.ts';
import { BRIDGE_HOST_NAME, type BridgeRequests } from '../../protocol/bridge.ts';
import type { Handlers } from '../../protocol/channel.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import { browser } from '../core/browser.ts';
import type { SitesControl } from '../panel/sites.ts';
import type { AnnounceApis } from '../pipeline/approval-announcer.ts';
import { chromeAgentPorts, type ChromeAgentPortsDeps } from './agent-ports.ts';
import { AgentTabs } from './current-tabs.ts';
import { NativeLink } from './native-link.ts';
import { pairingAnnouncer } from './pairing-announcer.ts';
import { createPairingService } from './pairing-service.ts';
import { createBridgeRouter, type CallContext } from './router.ts';
import { ConnPairings } from './conn-pairings.ts';
import { refuse } from '../../protocol/channel.ts';
import { clampTtlMs, pairingVerdict } from '../../protocol/policy-rules.ts';
import { sha256Hex } from '../../base/hash.ts';
import type { ManagedPolicy } from '../core/managed-policy.ts';

/**
 * The worker's side of the MCP bridge: the native link to `steward-bridge host`, the router that
 * answers its calls, pairing (also the side panel's, through `pairings`), and the agent calls on
 * the pipeline. Built once at the worker's top level; `link.ensure()` connects.
 */
export interface BridgeDeps extends Omit<ChromeAgentPortsDeps, 'sites' | 'current' | 'push'> {
  sites: SitesControl;
  panels: { readonly count: number; push(message: PanelPush): void };
  announceApis: Pick<AnnounceApis, 'notify'>;
  /** The organisation's policy: which clients may pair at all, and how long their tokens may last. */
  policy: Pick<ManagedPolicy, 'read' | 'current'>;
  /** The audit export's half of the link: the host's answers, and the link coming up. */
  auditExport?: { result(result: AuditExportResult): void; linkUp(): void };
}

const log = (message: string) => console.warn(message);

export function wireBridge(deps: BridgeDeps) {
  let route: (raw: unknown) => Promise<void> = async () => undefined;
  const link = new NativeLink({
    connect: () => browser.runtime.connectNative(BRIDGE_HOST_NAME),
    disconnectReason: () => browser.runtime.lastError?.message,
    onMessage: (raw) => void route(raw),
    onChange: (status) => {
      deps.panels.push({ type: 'panel/bridge-changed' });
      if (status.connected) deps.auditExport?.linkUp();
    },
    extensionVersion: browser.runtime.getManifest().version,
    log,
  });

  const service = createPairingService({
    mintToken: async (request) => (await deps.pipeline()).admin.mintToken({ ...request, ttl_ms: clampTtlMs(deps.policy.current(), 'pairing', request.ttl_ms) }),
    revokeToken: async (tokenId) => void (await (await deps.pipeline()).admin.revokeToken(tokenId)),
    push: (m) => deps.panels.push(m),
    announce: pairingAnnouncer(deps.panels, deps.announceApis),
    linkStatus: () => Promise.resolve(link.status()),
  });
  /** The organisation's policy is asked again when the person accepts: it may have changed since the request. */
  const pairings: typeof service = {
    ...service,
    decide: async (message) => {
      if (message.decision.accept) {
        const waiting = (await service.pending()).find((p) => p.pairing_id === message.pairing_id);
        const verdict = waiting ? pairingVerdict((await deps.policy.read()).policy, waiting.client.name, waiting.client.key_sha256) : ({ ok: true } as const);
        if (!verdict.ok) return refuse('POLICY_DENIED', verdict.message);
      }
      return service.decide(message);
    },
  };
  const conns = new ConnPairings((id) => pairings.withdraw(id));
  // Requests that expired while the worker was stopped end now (an uncollected token is revoked).
  pairings.sweep().catch((e) => console.warn('sweeping pairings failed', e));

  const handlers: Handlers<BridgeRequests, CallContext> = {
    'bridge/pair-request': async (m, { conn }) => {
      // Only the key's hash is kept (on the request, then the token): the key itself stays with the client.
      const client = { ...m.client, ...(m.client_key !== undefined ? { key_sha256: await sha256Hex(m.client_key) } : {}) };
      const { policy } = await deps.policy.read();
      const verdict = pairingVerdict(policy, client.name, client.key_sha256);
      if (!verdict.ok) return refuse('POLICY_DENIED', verdict.message);
      const reply = await pairings.request({ client, source: m.source }, conn);
      // A request whose claim secret lives only in the asking process ends with it; a kept one (the client's credential file) waits for its next run.
      if (reply.ok && !m.keep) conns.opened(conn, reply.data.pairing_id);
      return reply;
    },
    'bridge/pair-claim': async (m, { conn }) => {
      const reply = await pairings.claim(m);
      if (!reply.ok || reply.data.status === 'paired') conns.settled(conn, m.pairing_id);
      return reply;
    },
    ...createAgentCalls(chromeAgentPorts({ ...deps, current: new AgentTabs(), push: (m) => deps.panels.push(m) })),
  };
  route = createBridgeRouter({
    handlers,
    post: (m) => void link.post(m),
    hello: (v) => link.helloReceived(v),
    connClosed: (conn) => void conns.closed(conn),
    auditExportResult: (r) => deps.auditExport?.result(r),
    log,
  });

  /** A tab's page tools changed (its page reported, navigated or closed): every bridge process may ask again. */
  const pageToolsChanged = (tabId: number) => void link.post({ kind: 'event', event: { type: 'page-tools-changed', tab_id: tabId } });

  return { link, pairings, pageToolsChanged };
}
