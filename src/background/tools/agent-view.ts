import { withoutDebuggingTools } from '../../observation/fusion/webmcp-actions.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { readSettings, SETTINGS_KEY } from '../../protocol/settings.ts';
import { browser } from '../core/browser.ts';
import { PERSON_AGENT_ID } from './run-from-panel.ts';

/** Whether the person chose, in Settings, to show agents the pages' debugging tools. */
export async function agentsSeeDebuggingTools(): Promise<boolean> {
  return readSettings((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY]).show_debugging_tools;
}

/**
 * Calls `changed` when the person turns on or off, in Settings, the showing of debugging tools to
 * agents: what an MCP client was offered from each page changes with it, so its tool list is redrawn.
 */
export function onDebuggingToolsSettingChanged(changed: () => void): void {
  browser.storage.onChanged.addListener((changes, area) => {
    const change = area === 'local' ? changes[SETTINGS_KEY] : undefined;
    if (change && readSettings(change.oldValue).show_debugging_tools !== readSettings(change.newValue).show_debugging_tools) changed();
  });
}

/**
 * A tab's observation as `agentId` receives it: the person (their own Run in the side panel)
 * sees every tool; an agent does not see the page's debugging tools unless the setting says so,
 * so it can neither read about them nor have the gateway run one (TOOL_NOT_FOUND).
 */
export function observedFor(agentId: string, state: ObservedState, showDebugging: boolean): ObservedState {
  return agentId === PERSON_AGENT_ID || showDebugging ? state : withoutDebuggingTools(state);
}

/** A tab observer whose observations are what an agent (not the person) receives: for the co-pilot's prompts. */
export function observeForAgents<R extends { ok: boolean; tab?: { state: ObservedState } }>(observeTab: (tabId: number) => Promise<R>, showDebugging: () => Promise<boolean>) {
  return async (tabId: number): Promise<R> => {
    const r = await observeTab(tabId);
    if (!r.ok || !r.tab || (await showDebugging())) return r;
    return { ...r, tab: { ...r.tab, state: withoutDebuggingTools(r.tab.state) } };
  };
}
