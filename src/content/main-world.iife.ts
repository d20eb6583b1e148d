// Main-world content script (document_start), registered for the sites the person allows while
// the polyfill setting is on. It holds no secrets and is treated as hostile: the page can tamper
// with anything here. Its jobs: the WebMCP polyfill where the browser has no native
// document.modelContext, and observing the page's same-origin JSON responses. Both reach Steward
// over one private MessagePort, which exists in both modes.
import { recordDeclaredAnnotations, serveModelContext, serveNativeThrown } from './main/page-channel-server.ts';
import { startMainWorld } from './main/start-main-world.ts';
import { captureThrown } from './main/thrown-capture.ts';
import { installStewardModelContext } from './main/webmcp/model-context.ts';
import { startPolyfill } from './main/webmcp/start-polyfill.ts';
import { pageAsks } from './main/page-asks.ts';

startMainWorld(
  (port) => {
    // @mcp-b/global's ModelContext and declarative forms, with Steward's own imperative methods
    // (model-context.ts): the page gets a document.modelContext that behaves like Chrome's.
    const { modelContext: mc, declarativeSync } = startPolyfill();
    if (!mc) return false;
    // The page's continuation calls (requestToken, resumeTool) are Steward's service worker's to answer.
    const asks = pageAsks(port);
    const runs = installStewardModelContext(mc as Parameters<typeof installStewardModelContext>[0], window, declarativeSync, { redeem: (token) => asks.resume(token) });
    const declared = recordDeclaredAnnotations(mc as { registerTool?: unknown });
    serveModelContext(mc as Parameters<typeof serveModelContext>[0], port, declared, captureThrown(mc as { registerTool?: unknown }), { runs, asks });
    return true;
  },
  // Native WebMCP: Chrome runs the tools, but only this world sees what they throw.
  (port) => serveNativeThrown(port, captureThrown((document as unknown as { modelContext: { registerTool?: unknown } }).modelContext)),
);
