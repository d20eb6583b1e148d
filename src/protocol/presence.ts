import { z } from 'zod';
import { ElementRef } from './element.ts';
import { AgentId } from './primitives.ts';

/**
 * An agent acting on a tab, as the page's Steward indicator and the toolbar badge show it (issue
 * 30.4). The worker derives it from what survives a restart (the journal's unfinished actions, the
 * co-pilot's run records); the content script only draws it. Names are untrusted text (an MCP
 * client names itself when it pairs): shown as text, never as markup.
 */

/** What the agent is doing now: waiting for the person's decision on a card, or acting. */
export const PresencePhase = z.enum(['awaiting_approval', 'acting']);
export type PresencePhase = z.infer<typeof PresencePhase>;

export const PresentAgent = z.object({
  agent_id: AgentId,
  /** The co-pilot, or a paired MCP client (its paired name, untrusted). */
  kind: z.enum(['copilot', 'mcp']),
  name: z.string().min(1).max(120),
  phase: PresencePhase,
});
export type PresentAgent = z.infer<typeof PresentAgent>;

export const TabPresence = z.object({
  agents: z.array(PresentAgent).min(1).max(8),
  /** The element an action names (its ref in the top frame's latest observation): outlined on the page. */
  target_ref: ElementRef.optional(),
});
export type TabPresence = z.infer<typeof TabPresence>;

/** The indicator's line for one agent, as plain text (the content script sets it as text, never as markup). */
export function presenceLine(agent: Pick<PresentAgent, 'name' | 'phase'>): string {
  return agent.phase === 'awaiting_approval' ? `${agent.name} waits for your approval in Steward’s side panel` : `${agent.name} is acting on this page`;
}
