import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ControlToBackground, type ControlPush } from '../../protocol/control-messages.ts';
import { observeForPanel, submitAsAgent } from './agent.ts';
import { decideApproval, listApprovals } from './approvals.ts';
import { auditEntries, auditExport, auditVerify, auditVerifyExport } from './audit.ts';
import { refuse, type ControlReply } from './reply.ts';
import { sitesReply, type SitesControl } from './sites.ts';
import { listTokens, mintToken, revokeToken } from './tokens.ts';
import type { SessionTabs } from '../pipeline/sessions.ts';
import type { ObserveOutcome } from '../ports/tab-observer.ts';
import type { SenderKind } from '../senders.ts';

/**
 * The control room's messages (src/protocol/control-messages.ts): approve, mint, revoke, read the
 * audit log, observe, submit as the co-pilot. Checked by sender first — only the side panel page
 * may send them; a content script, a page or anything else gets FORBIDDEN_SENDER whatever the
 * payload says — then by schema, then queued until the pipeline has recovered.
 */

const CONTROL_TYPES: ReadonlySet<string> = new Set(ControlToBackground.options.map((o) => o.shape.type.value));

/** Whether a message claims to be a control message (decided on its `type` alone, before any trust). */
export function isControlMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && CONTROL_TYPES.has((message as { type?: unknown }).type as string);
}

export interface ControlDeps {
  ready: () => Promise<Pipeline>;
  sessions: Pick<SessionTabs, 'sessionFor'>;
  observeTab: (tabId: number) => Promise<ObserveOutcome>;
  push: (message: ControlPush) => void;
  sites: SitesControl;
}

export function createControlRouter(deps: ControlDeps) {
  return async function handleControl(message: unknown, who: SenderKind): Promise<ControlReply> {
    if (who.kind !== 'panel') return refuse('FORBIDDEN_SENDER', 'Only Steward’s side panel may approve, manage tokens, read the audit log or act as an agent.');
    const parsed = ControlToBackground.safeParse(message);
    if (!parsed.success) return refuse('INVALID_MESSAGE', parsed.error.message);
    const m = parsed.data;
    // Site access does not depend on the pipeline's store.
    if (m.type === 'panel/sites') return sitesReply(deps.sites, m);
    if (m.type === 'panel/site-allow' || m.type === 'panel/site-remove') {
      const reply = await sitesReply(deps.sites, m);
      if (reply.ok) deps.push({ type: 'panel/sites-changed' });
      return reply;
    }
    let pipeline: Pipeline;
    try {
      pipeline = await deps.ready();
    } catch (error) {
      return refuse('NOT_READY', `Steward's store could not be opened: ${String(error)}`, true);
    }
    switch (m.type) {
      case 'panel/approvals':
        return listApprovals(pipeline);
      case 'panel/approval-decide':
        return decideApproval(pipeline, m);
      case 'panel/tokens':
        return listTokens(pipeline, m);
      case 'panel/token-mint': {
        const reply = await mintToken(pipeline, m);
        if (reply.ok) changed(deps, 'panel/tokens-changed');
        return reply;
      }
      case 'panel/token-revoke': {
        const reply = await revokeToken(pipeline, m);
        if (reply.ok) changed(deps, 'panel/tokens-changed');
        return reply;
      }
      case 'panel/audit':
        return auditEntries(pipeline, m);
      case 'panel/audit-verify':
        return auditVerify(pipeline);
      case 'panel/audit-export':
        return auditExport(pipeline);
      case 'panel/audit-verify-export':
        return auditVerifyExport(pipeline, m);
      case 'panel/observe-tab':
        return observeForPanel(deps.observeTab, m);
      case 'agent/submit': {
        const reply = await submitAsAgent(pipeline, deps.sessions, m);
        deps.push({ type: 'panel/audit-changed' });
        return reply;
      }
    }
  };
}

function changed(deps: ControlDeps, what: 'panel/tokens-changed'): void {
  deps.push({ type: what });
  deps.push({ type: 'panel/audit-changed' });
}
