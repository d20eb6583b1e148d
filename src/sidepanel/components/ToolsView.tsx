import { useEffect, useState } from 'preact/hooks';
import type { FrameTools } from '../../protocol/webmcp.ts';
import { getTabTools, subscribe } from '../background-client.ts';
import { currentTabId } from '../current-tab.ts';
import { ToolCard } from './ToolCard.tsx';

const API_LABEL = { native: 'native WebMCP', polyfill: 'WebMCP polyfill', none: 'no WebMCP' } as const;
/** What an empty list means, per API: "none registered" differs from "none possible". */
const API_NOTE = {
  native: 'The browser supports WebMCP; this page has not registered any tools.',
  polyfill: 'Steward’s polyfill provides WebMCP here; this page has not registered any tools.',
  none: 'WebMCP is not available on this page.',
} as const;

/** The current tab's WebMCP tools, per frame, kept live by the service worker's pushes. */
export function ToolsView() {
  const tabId = currentTabId.value;
  const [frames, setFrames] = useState<FrameTools[] | undefined>(undefined);
  const [error, setError] = useState<string>('');

  useEffect(() => {
    if (tabId === undefined) return;
    let alive = true;
    const load = () =>
      getTabTools(tabId).then(
        (r) => alive && (setFrames(r.frames), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load();
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/tools-changed' && m.tabId === tabId) void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [tabId]);

  const withTools = (frames ?? []).filter((f) => f.tools.length > 0);
  const count = withTools.reduce((n, f) => n + f.tools.length, 0);
  return (
    <section aria-labelledby="tools-heading">
      <h3 id="tools-heading">Page tools (WebMCP)</h3>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {frames === undefined && !error && <p class="muted">Loading…</p>}
      {frames !== undefined && count === 0 && (
        <p class="muted" role="status">
          No WebMCP tools. {frames[0] ? API_NOTE[frames[0].api] : 'Steward has not heard from this page (it may be a browser page).'}
        </p>
      )}
      {count > 0 && (
        <p class="muted" role="status">
          {count} tool{count === 1 ? '' : 's'}
        </p>
      )}
      <div role="list" aria-label="Tools" style="display:grid;gap:8px">
        {withTools.flatMap((frame) =>
          frame.tools.map((tool) => (
            <div role="listitem" key={`${frame.frameId}:${tool.name}`}>
              <ToolCard tabId={frame.tabId} frame={frame} tool={tool} apiLabel={API_LABEL[frame.api]} />
            </div>
          )),
        )}
      </div>
    </section>
  );
}
