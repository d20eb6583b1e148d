import type { AgentContext } from '../../pipeline/agent-context.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import type { SessionTabs } from '../core/sessions.ts';
import type { ObserveOutcome } from '../ports/tab-observer.ts';
import { observeRefusalPhrase } from '../ports/refusal-phrase.ts';

/**
 * `agent/submit` (the co-pilot's actions) and `panel/observe-tab` (the live state of a tab).
 * The agent's identity and its tab come from the panel's message, which only the side panel can
 * send; the tab becomes an opaque session id before anything reaches the pipeline.
 */

export async function submitAsAgent(
  pipeline: Pipeline,
  sessions: Pick<SessionTabs, 'sessionFor'>,
  message: Payload<PanelRequests, 'agent/submit'>,
): Promise<Reply<Data<PanelRequests, 'agent/submit'>>> {
  const session_id = await sessions.sessionFor(message.agent_id, message.tabId);
  const agent: AgentContext = {
    agent_id: message.agent_id,
    token: message.token,
    session_id,
    untrusted_input: message.untrusted_input,
    wait_for_approval: message.wait_for_approval,
    ...(message.expect ? { expect: message.expect } : {}),
  };
  return ok({ result: await pipeline.submit(message.request, agent) });
}

export async function observeForPanel(
  observeTab: (tabId: number) => Promise<ObserveOutcome>,
  message: Payload<PanelRequests, 'panel/observe-tab'>,
): Promise<Reply<Data<PanelRequests, 'panel/observe-tab'>>> {
  const r = await observeTab(message.tabId);
  if (r.ok) return ok({ state: r.tab.state });
  return ok({ state: null, error: `${r.error.code}: ${r.error.message}`.slice(0, 2000), error_said: observeRefusalPhrase(r.error, message.tabId) });
}
