import type { BridgeRequests, BridgeTab } from '../protocol/bridge.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { PageSnapshot } from '../protocol/snapshot.ts';
import { ok, refuse, type Data, type Payload, type Refusal, type Reply } from '../protocol/channel.ts';
import { makeError } from '../protocol/errors.ts';
import { errorResult, forAgents, isErrorResult, type ActionResult } from '../protocol/results.ts';
import { outputWithinBudget } from '../protocol/webmcp-budgets.ts';
import type { DelegatedAgentToken } from '../protocol/token.ts';
import type { ActionStatus } from '../pipeline/pipeline.ts';
import { actionsView, approvalRule } from './actions-view.ts';
import { observeReply } from './observe-view.ts';
import type { AgentCallPorts, BrowserTab } from './ports.ts';
import { bridgeTab, Visibility } from './visible-tabs.ts';
import { navigationProblem } from '../protocol/navigation-url.ts';
import { originOf } from '../base/origin.ts';
import { atOrigin } from '../protocol/resource.ts';
import { isShownLink } from '../base/shown-link.ts';
import { siteContentIn, siteContentSaid } from '../protocol/site-content.ts';
import { phrase } from '../protocol/phrase.ts';
import type { ExpectedEffect } from '../protocol/expectation.ts';
import type { McpSession } from '../protocol/mcp-session.ts';

/**
 * An MCP client's calls, as Steward's worker answers them (pure; the browser and the pipeline are
 * behind `AgentCallPorts`). Every call first authenticates the token secret it carries — each time,
 * so a revocation takes effect on the next call — and reads nothing before that. The agent sees
 * only tabs on sites that are both allowed by the person and named by its token; it is marked
 * tainted before any page-derived content is handed to it — tab titles and addresses, observations,
 * action results (state, tool output, the page's or the site's words), remembered resources — by
 * every call, not only observe; its actions go through the pipeline like the co-pilot's, never
 * waiting inside the worker for the person (APPROVAL_REQUIRED comes back at once).
 */

type AgentCall = Exclude<keyof BridgeRequests, 'bridge/pair-request' | 'bridge/pair-claim'>;
export type AgentCallHandlers = { [K in AgentCall]: (payload: Payload<BridgeRequests, K>) => Promise<Reply<Data<BridgeRequests, K>>> };

const TOKEN_PROBLEM = {
  unknown: 'Steward does not know this token (it was never issued, or was purged)',
  expired: 'the token has expired',
  revoked: 'the person revoked this token in Steward',
  corrupt: "Steward could not read this token's record",
} as const;

interface Caller {
  agentId: string;
  secret: string;
  token: DelegatedAgentToken;
  visible: Visibility;
}

const leftMessage = (url: string, target: string): string =>
  `${url.slice(0, 500)} redirected to ${target.slice(0, 300)}, which is not one of the sites this client may use; the navigation was stopped before any request reached it.`;

const tabNotFound = (tabId: number): Refusal => refuse('TAB_NOT_FOUND', `No tab ${tabId} on a site this client may use (it may have closed or moved to another site).`);

export function createAgentCalls(ports: AgentCallPorts): AgentCallHandlers {
  /** Who is calling, from the presented secret alone: its token must be valid now and issued to the agent it names. */
  async function authenticate(auth: { agent_id: string; token: string }): Promise<Caller | Refusal> {
    const check = await ports.authenticate(auth.token);
    if (!check.ok) return refuse('TOKEN_INVALID', `Refused: ${TOKEN_PROBLEM[check.reason]}. Pair this client again in Steward's side panel.`);
    if (check.token.agent_id !== auth.agent_id) return refuse('TOKEN_INVALID', 'Refused: this token was issued to another agent.');
    return { agentId: auth.agent_id, secret: auth.token, token: check.token, visible: await Visibility.of(ports, check.token) };
  }

  async function visibleTabs(caller: Caller): Promise<BrowserTab[]> {
    return (await ports.tabs()).filter((t) => caller.visible.allows(t.url));
  }

  async function visibleTab(caller: Caller, tabId: number): Promise<BrowserTab | undefined> {
    return (await visibleTabs(caller)).find((t) => t.tab_id === tabId);
  }

  const asTab = (tab: BrowserTab) => bridgeTab(tab, ports.lastSeen(tab.tab_id, tab.url));

  /** Runs `use` for an authenticated caller on one of its visible tabs. */
  async function onTab<T>(auth: { agent_id: string; token: string }, tabId: number, use: (caller: Caller, tab: BrowserTab) => Promise<Reply<T>>): Promise<Reply<T>> {
    const caller = await authenticate(auth);
    if ('ok' in caller) return caller;
    const tab = await visibleTab(caller, tabId);
    return tab ? use(caller, tab) : tabNotFound(tabId);
  }

  /** A fresh observation of a visible tab, with the agent tainted before anything of it is returned. */
  async function observed(caller: Caller, tab: BrowserTab): Promise<{ state: ObservedState; snapshot: PageSnapshot; tab: BridgeTab } | Refusal> {
    const r = await ports.observe(tab.tab_id);
    if (!r.ok) return refuse(r.error.code, `Steward could not observe tab ${tab.tab_id}: ${r.error.message}`, r.error.retryable);
    // The page may have moved to another site while it was read: then nothing of it is returned.
    if (!caller.visible.allows(r.state.url)) return tabNotFound(tab.tab_id);
    await ports.taint(caller.agentId, `page content of ${originOf(r.state.url)} read through the MCP bridge`, phrase('taint_bridge_page', { origin: String(originOf(r.state.url)) }));
    await ports.setCurrentTab(caller.agentId, tab.tab_id);
    // What this look shows is what a steward_execute naming no resource acts on (never a resource it did not see).
    const origin = originOf(r.state.url);
    await ports.setShownResource(caller.agentId, tab.tab_id, origin ? atOrigin(r.state.resource, origin) : r.state.resource);
    return {
      state: r.state,
      snapshot: r.snapshot,
      tab: bridgeTab({ ...tab, url: r.state.url, title: r.state.title ?? tab.title }, { ...r.state.resource, state: r.state.state, state_version: r.state.state_version }),
    };
  }

  /**
   * A request that names no resource acts on the one the agent's last look at the tab showed it
   * (steward_observe leaves out a page that is its own resource: its address is in the tab): the
   * binding is the same as if the agent had copied it. Without such a look there is nothing to
   * act on, and it is refused; a request that names one is passed on as it is.
   */
  async function withShownResource(caller: Caller, tabId: number | undefined, request: unknown): Promise<{ request: unknown } | Refusal> {
    if (typeof request !== 'object' || request === null || Array.isArray(request) || 'resource' in request) return { request };
    const shown = tabId !== undefined ? await ports.shownResource(caller.agentId, tabId) : undefined;
    if (!shown)
      return refuse('INVALID_INPUT', 'Name the resource to act on (as steward_observe shows it), or observe the tab first: a request without one acts on what your last look at the tab showed.');
    return { request: { ...request, resource: shown } };
  }

  /**
   * A client that has read a page may open only a link its current tab shows (quiet-sinks.ts): an
   * address it composed can carry what it read, and steward_open has no card. It is sent to
   * nav.goto, which the person approves with the full URL in front of them.
   */
  async function composedAddress(caller: Caller, url: string): Promise<Refusal | undefined> {
    if (!(await ports.tainted(caller.agentId))) return undefined;
    // A site's bare home page, or the address a tab it may see already shows: nothing the agent added.
    if ((await visibleTabs(caller)).some((t) => isShownLink(url, { url: t.url }))) return undefined;
    const tabId = await ports.currentTab(caller.agentId);
    const tab = tabId !== undefined ? await visibleTab(caller, tabId) : undefined;
    const r = tab ? await ports.observe(tab.tab_id) : undefined;
    if (r?.ok && caller.visible.allows(r.state.url) && isShownLink(url, r.state)) return undefined;
    return refuse(
      'APPROVAL_REQUIRED',
      `${url} is not a link your current tab shows, and page content has reached this client, so the address may carry what it read: ask for it with steward_execute nav.goto {url}, which the person approves with the full URL in front of them. Nothing was opened.`,
    );
  }

  /**
   * An action request through the pipeline as this caller, never waiting for the person; what it
   * returns of a page taints the caller. `client_session`: the client's session as the bridge sent
   * it with the call (schema-checked by the router), recorded with the action's audit entries under
   * this caller's agent id, so it can only ever group this client's own actions.
   */
  async function submitFor(
    caller: Caller,
    tabId: number | undefined,
    request: unknown,
    untrusted_input: boolean,
    expect: ExpectedEffect | undefined,
    client_session: McpSession | undefined,
  ): Promise<Reply<{ result: ActionResult }>> {
    const session_id = await ports.sessionFor(caller.agentId, tabId ?? -1);
    try {
      const result = await ports.submit(request, {
        agent_id: caller.agentId,
        token: caller.secret,
        session_id,
        untrusted_input,
        wait_for_approval: false,
        ...(expect ? { expect } : {}),
        ...(client_session ? { mcp_session: client_session } : {}),
      });
      const carried = siteContentIn(result);
      if (carried) await ports.taint(caller.agentId, `${carried.text}, returned through the MCP bridge`, siteContentSaid(carried, true));
      // The model gets at most Chrome's output budget, marked truncated; steward_action_status gives it whole.
      return ok({ result: !isErrorResult(result) && result.output ? { ...result, output: outputWithinBudget(result.output) } : forAgents(result) });
    } finally {
      ports.auditChanged();
    }
  }

  return {
    'bridge/tabs': async ({ auth }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      const tabs = (await visibleTabs(caller)).slice(0, 200);
      // A title is whatever the page set: words the agent reads, like any other page text.
      if (tabs.length > 0) await ports.taint(caller.agentId, `titles and addresses of ${tabs.length} tab(s) listed through the MCP bridge`, phrase('taint_bridge_tabs', { count: tabs.length }));
      return ok({ tabs: tabs.map(asTab) });
    },

    'bridge/open': async ({ auth, url, new_tab }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      const bad = navigationProblem(url);
      if (bad) return refuse('INVALID_INPUT', `Refused: the url ${bad.message}.`);
      if (!caller.visible.allows(url)) return refuse('SITE_NOT_ALLOWED', caller.visible.refusal(url));
      const held = await composedAddress(caller, url);
      if (held) return held;
      const opened = await ports.open(url, new_tab, caller.visible.list());
      if ('error' in opened) return refuse('NAVIGATION_FAILED', opened.error, true);
      // A redirect hop to another origin was stopped before any request reached it.
      if ('left' in opened) return refuse('SITE_NOT_ALLOWED', leftMessage(url, opened.left));
      // Anything else that ended outside the allowed sites (the fence makes this the page's own doing): not the agent's tab.
      if (!caller.visible.allows(opened.tab.url)) return refuse('SITE_NOT_ALLOWED', leftMessage(url, originOf(opened.tab.url) ?? 'another page'));
      await ports.taint(caller.agentId, `the title of ${originOf(opened.tab.url)} opened through the MCP bridge`, phrase('taint_bridge_opened', { origin: String(originOf(opened.tab.url)) }));
      await ports.setCurrentTab(caller.agentId, opened.tab.tab_id);
      return ok({ tab: asTab(opened.tab), created: opened.created });
    },

    'bridge/observe': ({ auth, tab_id, query, expand }) =>
      onTab(auth, tab_id, async (caller, tab) => {
        const r = await observed(caller, tab);
        if ('ok' in r) return r;
        return ok({ tab: r.tab, ...observeReply(r.state, r.snapshot, { query, expand }, approvalRule(await ports.tainted(caller.agentId))) });
      }),

    'bridge/actions': ({ auth, tab_id }) =>
      onTab(auth, tab_id, async (caller, tab) => {
        const r = await observed(caller, tab);
        if ('ok' in r) return r;
        return ok({ tab: r.tab, ...actionsView(r.state.actions ?? [], approvalRule(await ports.tainted(caller.agentId))) });
      }),

    'bridge/execute': async ({ auth, tab_id, request, untrusted_input, expect, session }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      let tabId = tab_id ?? (await ports.currentTab(caller.agentId));
      if (tab_id !== undefined && !(await visibleTab(caller, tab_id))) return tabNotFound(tab_id);
      // A remembered tab that closed or left the allowed sites: the navigator finds the resource afresh.
      if (tab_id === undefined && tabId !== undefined && !(await visibleTab(caller, tabId))) tabId = undefined;
      const named = await withShownResource(caller, tabId, request);
      if ('ok' in named) return named;
      return submitFor(caller, tabId, named.request, untrusted_input, expect, session);
    },

    'bridge/page-tools': async ({ auth }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      const tabId = await ports.currentTab(caller.agentId);
      const tab = tabId === undefined ? undefined : await visibleTab(caller, tabId);
      if (!tab) return ok({ tab: null, tools: [] });
      const offered = await ports.pageTools(tab.tab_id);
      // Only what the page the tab shows reported, from a site this client may use.
      if (!offered || !caller.visible.allows(offered.url) || originOf(offered.url) !== originOf(tab.url)) return ok({ tab: asTab(tab), tools: [] });
      const listed = offered.actions.filter((a) => a.via === 'webmcp');
      // Their names, descriptions and schemas are the page's words.
      if (listed.length > 0)
        await ports.taint(caller.agentId, `the WebMCP tools of ${originOf(tab.url)} listed through the MCP bridge`, phrase('taint_bridge_tools', { origin: String(originOf(tab.url)) }));
      const { actions } = actionsView(listed, approvalRule(await ports.tainted(caller.agentId)));
      return ok({ tab: asTab(tab), tools: actions.slice(0, 128) });
    },

    'bridge/page-tool-call': ({ auth, tab_id, tool, input, idempotency_key, session }) =>
      onTab(auth, tab_id, async (caller, tab) => {
        // The resource the tool acts on is the one the tab shows now; the pipeline checks the rest as for steward_execute.
        const r = await observed(caller, tab);
        if ('ok' in r) return r;
        return submitFor(caller, tab.tab_id, { action: tool, resource: r.state.resource, input, idempotency_key }, false, undefined, session);
      }),

    'bridge/screenshot': async ({ auth, tab_id }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      const tabId = tab_id ?? (await ports.currentTab(caller.agentId));
      if (tabId === undefined) return refuse('TAB_NOT_FOUND', 'No tab_id was given and this client has no current tab yet: open or observe one first (steward_tabs lists them).');
      const tab = await visibleTab(caller, tabId);
      if (!tab) return tabNotFound(tabId);
      const shot = await ports.screenshot(tab.tab_id);
      if (!shot.ok) return refuse(shot.code, shot.message, shot.retryable);
      // The pixels are of the page the tab showed when they were taken: nothing of another site is returned.
      if (!caller.visible.allows(shot.url)) return tabNotFound(tab.tab_id);
      await ports.taint(caller.agentId, `a screenshot of ${originOf(shot.url)} taken through the MCP bridge`, phrase('taint_bridge_screenshot', { origin: String(originOf(shot.url)) }));
      await ports.setCurrentTab(caller.agentId, tab.tab_id);
      return ok({ tab: asTab({ ...tab, url: shot.url }), mime_type: shot.mime_type, data: shot.data, width: shot.width, height: shot.height });
    },

    'bridge/action-status': async ({ auth, action_id, wait_ms }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      let status = await ports.actionStatus(caller.agentId, action_id);
      if (!status) return refuse('ACTION_NOT_FOUND', `This client has no action ${action_id}.`);
      // A client that would rather wait than ask again: held until the pipeline says the action moved on.
      if (wait_ms > 0 && !status.finished) {
        await ports.actionSettled(action_id, wait_ms);
        status = (await ports.actionStatus(caller.agentId, action_id)) ?? status;
      }
      const result = statusResult(status);
      const carried = siteContentIn(result);
      if (carried) await ports.taint(caller.agentId, `${carried.text}, returned through the MCP bridge`, siteContentSaid(carried, true));
      return ok({ result: forAgents(result) });
    },

    'bridge/memory': async ({ auth }) => {
      const caller = await authenticate(auth);
      if ('ok' in caller) return caller;
      const records = await ports.records(caller.agentId);
      // Remembered states, ids and addresses were read from pages and sites.
      if (records.unfinished.length > 0 || records.resources.length > 0)
        await ports.taint(caller.agentId, 'remembered resources read from pages, returned through the MCP bridge', phrase('taint_bridge_memory'));
      return ok({
        unfinished: records.unfinished.slice(0, 200).map((a) => ({
          action_id: a.action_id,
          action: a.request.action,
          resource: a.request.resource,
          status: a.state,
          idempotency_key: a.idempotency_key,
          updated_at: new Date(a.updated_at).toISOString(),
        })),
        // A remembered URL is a hint; one outside this client's sites is not shown.
        resources: records.resources.slice(0, 500).map(({ url_hint, ...r }) => ({ ...r, ...(url_hint && caller.visible.allows(url_hint) ? { url_hint } : {}) })),
      });
    },
  };
}

/** The latest result the journal holds, or what the action is doing while it has none. */
function statusResult(status: ActionStatus): ActionResult {
  if (status.result) return status.result;
  const waiting = status.state === 'awaiting_approval';
  return errorResult(
    makeError('IN_PROGRESS', waiting ? "The action waits for the person's decision in Steward's side panel." : `The action is ${status.state.replace(/_/g, ' ')}.`, {
      retry_after_ms: 1000,
      details: { state: status.state },
    }),
    { action_id: status.action_id },
  );
}
