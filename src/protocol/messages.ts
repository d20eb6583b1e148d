import { z } from 'zod';
import { FrameTools, ToolDescriptor, ToolRunOutcome, WebMcpApi } from './webmcp.ts';

/**
 * Every message between Steward's own contexts. Each context validates what it receives with
 * these schemas and checks who sent it (see src/background/senders.ts); anything else is dropped
 * with a machine-readable error.
 */

const ToolInput = z.record(z.string(), z.unknown());

// ── content script (isolated world) → service worker ────────────────────────────────────────
export const ContentToolsReport = z.object({
  type: z.literal('content/tools'),
  api: WebMcpApi,
  url: z.string().max(8192),
  tools: z.array(ToolDescriptor).max(512),
});
export const ContentToBackground = z.discriminatedUnion('type', [ContentToolsReport]);
export type ContentToBackground = z.infer<typeof ContentToBackground>;

// ── service worker → content script ──────────────────────────────────────────────────────────
export const ContentRunTool = z.object({
  type: z.literal('content/run-tool'),
  name: z.string().min(1),
  input: ToolInput,
});
export const ContentRelistTools = z.object({ type: z.literal('content/relist-tools') });
export const BackgroundToContent = z.discriminatedUnion('type', [ContentRunTool, ContentRelistTools]);
export type BackgroundToContent = z.infer<typeof BackgroundToContent>;

// ── side panel → service worker ──────────────────────────────────────────────────────────────
export const PanelGetTabTools = z.object({ type: z.literal('panel/get-tab-tools'), tabId: z.number().int() });
export const PanelRunTool = z.object({
  type: z.literal('panel/run-tool'),
  tabId: z.number().int(),
  frameId: z.number().int(),
  name: z.string().min(1),
  input: ToolInput,
});
export const PanelToBackground = z.discriminatedUnion('type', [PanelGetTabTools, PanelRunTool]);
export type PanelToBackground = z.infer<typeof PanelToBackground>;

export const TabToolsResponse = z.object({ frames: z.array(FrameTools) });
export type TabToolsResponse = z.infer<typeof TabToolsResponse>;

// ── service worker → side panel (broadcast over the panel's port) ────────────────────────────
export const PanelToolsChanged = z.object({ type: z.literal('panel/tools-changed'), tabId: z.number().int() });
export const BackgroundToPanel = z.discriminatedUnion('type', [PanelToolsChanged]);
export type BackgroundToPanel = z.infer<typeof BackgroundToPanel>;

/** Replies always have this envelope so a caller can tell a refusal from a result. */
export const Reply = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({
      ok: z.literal(false),
      error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }),
    }),
  ]);

export { ToolRunOutcome };
