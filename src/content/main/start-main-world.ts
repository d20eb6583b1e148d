import { offerPortToIsolatedWorld } from './handshake.ts';
import { installNetworkObserver, portSender } from './network-observer.ts';

/**
 * What every main-world script of Steward does at document_start: observe the page's same-origin
 * JSON responses before any page script can fetch, and hand the isolated world one private port.
 * `polyfill` (when given and the browser has no native WebMCP) installs the WebMCP polyfill and
 * serves its tools over the same port, answering whether it does.
 */
export function startMainWorld(polyfill?: (port: MessagePort) => boolean): void {
  const channel = new MessageChannel();
  const network = portSender(channel.port1);
  installNetworkObserver(window, network.emit);
  const serving = polyfill !== undefined && !('modelContext' in document) && polyfill(channel.port1);
  delete (window as { __webModelContextOptions?: unknown }).__webModelContextOptions;
  // In native mode (or with the polyfill off) the isolated world still takes this port, for network records.
  offerPortToIsolatedWorld(channel.port2, network.connected, { polyfill: serving });
}
