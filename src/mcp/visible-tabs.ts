import { originOf } from '../base/origin.ts';
import type { BridgeTab } from '../protocol/bridge.ts';
import type { DelegatedAgentToken } from '../protocol/token.ts';
import type { AgentCallPorts, BrowserTab } from './ports.ts';

/**
 * Which tabs an external agent may see: those whose page is on one of the person's allowed sites
 * AND one of its token's origins. Every other tab does not exist for it (its URL and title are
 * never returned, and asking for it by id is TAB_NOT_FOUND, the same as for a closed tab).
 */

export class Visibility {
  private constructor(private readonly origins: ReadonlySet<string>) {}

  static async of(ports: Pick<AgentCallPorts, 'allowedSites'>, token: DelegatedAgentToken): Promise<Visibility> {
    const allowed = new Set(await ports.allowedSites());
    return new Visibility(new Set(token.origins.filter((o) => allowed.has(o))));
  }

  /** The origins the agent may use (a navigation is fenced to them). */
  list(): string[] {
    return [...this.origins];
  }

  allows(url: string): boolean {
    const origin = originOf(url);
    return origin !== undefined && this.origins.has(origin);
  }

  /** Why a URL is not for this agent, in words that name only the URL the agent gave. */
  refusal(url: string): string {
    const origin = originOf(url) ?? url.slice(0, 200);
    return `${origin} is not one of the sites this client may use (the person's allowed sites that its token names).`;
  }
}

export function bridgeTab(tab: BrowserTab, resource: BridgeTab['resource']): BridgeTab {
  return {
    tab_id: tab.tab_id,
    url: tab.url.slice(0, 4096),
    title: tab.title.slice(0, 512),
    origin: originOf(tab.url)!,
    active: tab.active,
    ...(resource ? { resource } : {}),
  };
}
