import { offerPortToIsolatedWorld } from './handshake.ts';
import { installListenerMarks } from './listener-marks.ts';
import { installNetworkObserver, portSender } from './network-observer.ts';
import { installPageTimers } from './page-timers.ts';
import { installPageDialogs } from './page-dialogs.ts';

/**
 * What every main-world script of Steward does at document_start: note which elements the page's
 * scripts give listeners (listener-marks.ts) and which short timers they set (page-timers.ts), and observe the page's same-origin JSON responses,
 * both before any page script can run, and hand the isolated world one private port.
 * `polyfill` (when given and the browser has no native WebMCP) installs the WebMCP polyfill and
 * serves its tools over the same port, answering whether it does; `native` (when the browser has
 * native WebMCP) serves what the page's tools throw there.
 */
export function startMainWorld(polyfill?: (port: MessagePort) => boolean, native?: (port: MessagePort) => void): void {
  try {
    installListenerMarks();
  } catch {
    // A browser without one of the prototypes it wraps: no marks, the rest still runs.
  }
  try {
    installPageTimers();
  } catch {
    // Without it, settling waits for mutations, requests and animations only.
  }
  try {
    installPageDialogs();
  } catch {
    // Without it, a dialog the page raises during an act is the browser's, shown to the person (never accepted by Steward).
  }
  const channel = new MessageChannel();
  const network = portSender(channel.port1);
  installNetworkObserver(window, network.emit, network.request);
  const hasNative = 'modelContext' in document;
  const serving = polyfill !== undefined && !hasNative && polyfill(channel.port1);
  if (hasNative && native) native(channel.port1);
  delete (window as { __webModelContextOptions?: unknown }).__webModelContextOptions;
  // In native mode (or with the polyfill off) the isolated world still takes this port, for network records.
  offerPortToIsolatedWorld(channel.port2, network.connected, { polyfill: serving });
}
