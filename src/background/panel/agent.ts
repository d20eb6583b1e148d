import type { AgentContext } from '../../pipeline/agent-context.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import type { SessionTabs } from '../core/sessions.ts';
import { noAnswerMessage } from '../core/messenger.ts';
import { tabGoneMessage, type ObserveOutcome } from '../ports/tab-observer.ts';

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
  const said = observeRefusalPhrase(r.error, message.tabId);
  return ok({ state: null, error: `${r.error.code}: ${r.error.message}`.slice(0, 2000), ...(said ? { error_said: said } : {}) });
}

/**
 * Why the tab could not be observed, as a phrase, for the two refusals Steward words the same way
 * every time (the tab is the request's); any other refusal, or the same code with other words,
 * keeps its English alone.
 */
function observeRefusalPhrase(error: { code: string; message: string }, tab: number): Phrase | undefined {
  if (error.code === 'NO_CONTENT_SCRIPT' && error.message === noAnswerMessage(tab)) return phrase('observe_no_answer', { tab });
  if (error.code === 'TAB_GONE' && error.message === tabGoneMessage(tab)) return phrase('observe_tab_gone', { tab });
  return undefined;
}
