// Isolated-world content script (document_start, every frame). It observes and reports; it
// holds no secrets and makes no policy decisions.
import { ToolDiscovery } from './webmcp/discovery.ts';
import { NativeToolSource, nativeModelContext } from './webmcp/native-source.ts';
import { PolyfillToolSource, receivePageChannelPort, thrownLookup } from './webmcp/polyfill-source.ts';
import { ask, listenToWorker, report } from './worker-channel.ts';
import { StewardIndicator } from './presence/indicator.ts';
import { ObservationHost } from './observe/observation-host.ts';
import { runSteps } from './act/run.ts';
import { NetworkBuffer, listenForNetworkRecords } from './main/network-buffer.ts';
import { RequestLedger } from './act/requests.ts';
import { PageActivity } from './act/activity.ts';
import { settleForObservation } from './act/settle.ts';

// Registered for allowed sites at document_start, and injected once more into pages that were
// already open when their site was allowed: the second run must not start a second copy.
const started = globalThis as { __stewardIsolatedStarted?: boolean };
if (!started.__stewardIsolatedStarted) {
  started.__stewardIsolatedStarted = true;
  start();
}

function start(): void {
  const discovery = new ToolDiscovery((snapshot) => report('content/tools', { api: snapshot.api, url: location.href.slice(0, 8192), tools: snapshot.tools }));

  const observation = new ObservationHost();
  const network = new NetworkBuffer({ origin: location.origin, capacity: 50 });
  const requests = new RequestLedger(location.origin);
  const activity = new PageActivity(document);
  // Images and other resources from other origins the page loads (a live preview's picture): writes an act is reported with.
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) requests.noteResource(e.name, (e as PerformanceResourceTiming).initiatorType, e.startTime);
    }).observe({ type: 'resource' });
  } catch {
    // No resource timing here: such loads go unreported (evidence, never proof that none happened).
  }
  // Steward's indicator, in the top frame only: who acts on this tab, with Stop (src/content/presence/).
  const indicator =
    window === window.top
      ? new StewardIndicator({
          doc: document,
          elementFor: (ref) => observation.elementFor(ref),
          stop: (agent_id) => void ask('content/stop-agent', { agent_id }),
        })
      : undefined;
  listenToWorker({
    source: () => discovery.activeSource,
    relist: () => discovery.refresh(),
    observation,
    // Refs resolve through the same observer that issued them.
    act: (request) => runSteps(request.steps, observation, request.documentToken, { doc: document, requests, activity }),
    settle: (capMs, quietMs) => settleForObservation({ doc: document, activity, requests, view: window }, capMs, quietMs),
    network: () => network.records(),
    ...(indicator ? { presence: (p) => indicator.show(p) } : {}),
  });

  // The main world's private port always exists (network observation); it carries the polyfill's
  // tools only where the browser has no native WebMCP. Taking it at once means no page script can.
  const native = nativeModelContext();
  const nativeSource = native ? new NativeToolSource(native) : undefined;
  if (nativeSource) discovery.attach(nativeSource);
  receivePageChannelPort((port, offer) => {
    listenForNetworkRecords(port, network);
    port.addEventListener('message', (event: MessageEvent) => requests.acceptEvent(event.data));
    // Chrome hides what a native tool threw; the main world saw it.
    if (nativeSource) nativeSource.thrownLookup = thrownLookup(port);
    // With the polyfill setting off the main world observes the network only: no tools to ask for.
    // The page's continuation calls go to the service worker, which alone issues and redeems tokens.
    if (!native && offer.polyfill)
      discovery.attach(new PolyfillToolSource(port, { token: (run_id) => ask('content/tool-token', { run_id }), resume: (token) => ask('content/tool-resume', { token }) }));
  });

  const whenParsed = () => {
    discovery.reportNone();
    discovery.schedule();
    discovery.watchDeclarativeForms();
    // A new document of a tab an agent acts on (it navigated, or the page was reloaded) shows the indicator at once.
    if (indicator) void ask('content/presence-ask', {}).then((reply) => reply?.ok && reply.data && indicator.show(reply.data));
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', whenParsed, { once: true });
  else whenParsed();
}
