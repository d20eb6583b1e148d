// Main-world content script (document_start). It holds no secrets and is treated as hostile:
// the page can tamper with anything here. Its jobs: the WebMCP polyfill where the browser has
// no native document.modelContext, and observing the page's same-origin JSON responses. Both
// reach Steward over one private MessagePort, which exists in both modes.
import './main/disable-autoinit.ts';
import { initializeWebModelContext } from '@mcp-b/global';
import { offerPortToIsolatedWorld } from './main/handshake.ts';
import { installNetworkObserver, portSender } from './main/network-observer.ts';
import { recordDeclaredAnnotations, serveModelContext } from './main/polyfill-bridge.ts';

const channel = new MessageChannel();
const network = portSender(channel.port1);
// Before any page script runs, so every fetch the page makes is seen.
installNetworkObserver(window, network.emit);

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
    serveModelContext(mc as Parameters<typeof serveModelContext>[0], channel.port1, declared);
  }
} else {
  delete (window as { __webModelContextOptions?: unknown }).__webModelContextOptions;
}
// In native mode the isolated world still takes this port, for network records only.
offerPortToIsolatedWorld(channel.port2, network.connected);
