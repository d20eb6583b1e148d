// Main-world content script (document_start). It holds no secrets and is treated as hostile:
// the page can tamper with anything here. Its only job is the WebMCP polyfill where the browser
// has no native document.modelContext, exposed to Steward over a private MessagePort.
import './main/disable-autoinit.ts';
import { initializeWebModelContext } from '@mcp-b/global';
import { offerPortToIsolatedWorld } from './main/handshake.ts';
import { recordDeclaredAnnotations, serveModelContext } from './main/polyfill-bridge.ts';

const hasNative = 'modelContext' in document;
if (!hasNative) {
  // The package insists on a postMessage transport; give it one that accepts no origin, so
  // the tools are reached only over Steward's private port.
  const nobody = { allowedOrigins: ['steward-private.invalid'], channelId: 'steward-closed' };
  initializeWebModelContext({ transport: { tabServer: nobody, iframeServer: nobody } });
  delete (window as { __webModelContextOptions?: unknown }).__webModelContextOptions;
  const mc = (document as unknown as { modelContext?: unknown }).modelContext;
  if (mc) {
    const declared = recordDeclaredAnnotations(mc as { registerTool?: unknown });
    const channel = new MessageChannel();
    serveModelContext(mc as Parameters<typeof serveModelContext>[0], channel.port1, declared);
    offerPortToIsolatedWorld(channel.port2);
  }
} else {
  delete (window as { __webModelContextOptions?: unknown }).__webModelContextOptions;
}
