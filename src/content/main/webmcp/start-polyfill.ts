// First: @mcp-b/global starts itself on import unless told not to.
import '../disable-autoinit.ts';
import { cleanupWebModelContext, initializeWebModelContext } from '@mcp-b/global';
import { watchDeclarativeSync, type DeclarativeSync } from './declarative-sync.ts';

/**
 * Installs the MCP-B polyfill through @mcp-b/global (its ModelContext on `document.modelContext`,
 * the declarative `<form toolname>` tools, `SubmitEvent.agentInvoked` / `respondWith`) and answers
 * the page's ModelContext, for Steward's own methods to go on (model-context.ts).
 *
 * @mcp-b/global also puts its BrowserMcpServer in front of that ModelContext, to serve the tools as
 * MCP over postMessage; Steward serves them over its private port instead. So the server is removed
 * at once: its transport (closed anyway: it accepts no origin) connects only a task later, so it
 * never starts, never listens for the page's messages and never announces itself to the page or
 * its parent; the page keeps the polyfill's ModelContext, an object like Chrome's own, not a
 * wrapper with other methods. No testing shim (`navigator.modelContextTesting`): Chrome offers it
 * only to its test runs.
 */
export function startPolyfill(): { modelContext: unknown; declarativeSync: DeclarativeSync } {
  const nobody = { allowedOrigins: ['steward-private.invalid'], channelId: 'steward-closed' };
  const { sync } = watchDeclarativeSync(window, () => initializeWebModelContext({ installTestingShim: false, transport: { tabServer: nobody, iframeServer: nobody } }));
  cleanupWebModelContext();
  return { modelContext: (document as unknown as { modelContext?: unknown }).modelContext, declarativeSync: sync };
}
