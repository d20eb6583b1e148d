import { claimsType, dispatch, refuse, type Handlers, type Reply } from '../../protocol/channel.ts';
import { ContentReports } from '../../protocol/content-channel.ts';
import { PANEL_PORT, PanelRequests } from '../../protocol/panel-channel.ts';
import { browser } from './browser.ts';
import { withSystemPhrase } from './system-refusal.ts';
import type { OpenPanels, PanelPort } from './open-panels.ts';
import { classifySender, type ContentSender, type SenderFacts, type SenderKind } from './senders.ts';

/**
 * The service worker's one door for messages: who sent it first (decided from what the browser
 * attaches, never from the payload), then that sender's channel. The side panel speaks the panel
 * channel, Steward's content scripts report on the content channel; a message of a channel its
 * sender may not use, and anything from anyone else, is FORBIDDEN_SENDER.
 */

const PANEL_PATH = 'src/sidepanel/index.html';

export interface ChannelDeps {
  /** The panel channel's handlers (src/background/panel/panel-channel.ts). */
  panel: Handlers<PanelRequests, void>;
  /** Content reports, site-checked (src/background/pages/content-reports.ts). */
  content: (message: unknown, who: ContentSender) => Promise<Reply<unknown>>;
  /** This extension's id and its side panel's URL prefix (the browser's, unless a test says otherwise). */
  extensionId?: string;
  panelUrlPrefix?: string;
}

const NOT_THE_PANEL = 'Only Steward’s side panel may approve, manage tokens, read the audit log, run tools or act as an agent.';

export function createChannels(deps: ChannelDeps) {
  const whoSent = (sender: SenderFacts): SenderKind =>
    classifySender(sender, deps.extensionId ?? browser.runtime.id, deps.panelUrlPrefix ?? browser.runtime.getURL(PANEL_PATH).replace(/index\.html$/, ''));

  async function onMessage(message: unknown, sender: SenderFacts): Promise<Reply<unknown>> {
    const who = whoSent(sender);
    if (who.kind === 'panel') {
      if (claimsType(ContentReports, message)) return refuse('FORBIDDEN_SENDER', 'Only Steward’s content scripts report tools.');
      // The panel shows a refusal to the person: one whose English is system text gets a sentence of its own.
      return withSystemPhrase(await dispatch(PanelRequests, deps.panel, message, undefined));
    }
    if (who.kind === 'content') {
      if (claimsType(PanelRequests, message)) return refuse('FORBIDDEN_SENDER', NOT_THE_PANEL);
      return deps.content(message, who);
    }
    return refuse('FORBIDDEN_SENDER', 'Messages are accepted only from Steward’s own content scripts and side panel.');
  }

  /** Only the side panel may hold a PANEL_PORT; any other port is closed at once. */
  function onConnect(port: PanelPort & { name: string; sender?: SenderFacts; disconnect(): void }, panels: OpenPanels): void {
    if (port.name !== PANEL_PORT || !port.sender || whoSent(port.sender).kind !== 'panel') {
      port.disconnect();
      return;
    }
    panels.add(port);
  }

  return { onMessage, onConnect };
}

export type Channels = ReturnType<typeof createChannels>;

/** Registers the one runtime.onMessage listener (at the worker's top level: MV3 wakes it only for listeners registered at once). */
export function listenToChannels(channels: Channels): void {
  browser.runtime.onMessage.addListener((message: unknown, sender: SenderFacts) => channels.onMessage(message, sender));
}

export function acceptPanelPorts(channels: Channels, panels: OpenPanels): void {
  browser.runtime.onConnect.addListener((port) => channels.onConnect(port, panels));
}
