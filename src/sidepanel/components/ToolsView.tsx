import { useEffect, useState } from 'preact/hooks';
import type { FrameTools, ToolDescriptor } from '../../protocol/webmcp.ts';
import { getTabTools, subscribe } from '../background-client.ts';
import { currentTabId } from '../current-tab.ts';
import { pageOffers } from '../../protocol/page-tools.ts';
import { ToolCard } from './ToolCard.tsx';

const API_LABEL = { native: 'native WebMCP', polyfill: 'WebMCP polyfill', none: 'no WebMCP' } as const;
/** What an empty list means, per API: "none registered" differs from "none possible". */
const API_NOTE = {
  native: 'The browser supports WebMCP; this page has not registered any tools.',
  polyfill: 'Steward’s polyfill provides WebMCP here; this page has not registered any tools.',
  none: 'WebMCP is not available on this page.',
} as const;
/**
 * Which WebMCP the tab's page has, as its top frame's content script found it at run time: the
 * browser's own `document.modelContext` (Chromium with the WebMCP feature on), Steward's polyfill
 * (injected where the browser has none), or neither.
 */
const API_LINE = {
  native: 'WebMCP: native (this browser’s own)',
  polyfill: 'WebMCP: Steward’s polyfill (this browser has no native WebMCP turned on)',
  none: 'WebMCP: none on this page (no native WebMCP here, and Steward’s polyfill is off in Settings or starts with the page’s next load)',
} as const;

type Listed = { frame: FrameTools; tool: ToolDescriptor; offeredByPage: boolean };

function ToolList({ label, items }: { label: string; items: Listed[] }) {
  return (
    <div role="list" aria-label={label} style="display:grid;gap:8px">
      {items.map(({ frame, tool, offeredByPage }) => (
        <div role="listitem" key={`${frame.frameId}:${tool.name}`}>
          <ToolCard tabId={frame.tabId} frame={frame} tool={tool} apiLabel={API_LABEL[frame.api]} offeredByPage={offeredByPage} />
        </div>
      ))}
    </div>
  );
}

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

  const top = frames?.find((f) => f.frameId === 0);
  const withTools = (frames ?? []).filter((f) => f.tools.length > 0);
  const count = withTools.reduce((n, f) => n + f.tools.length, 0);
  const listed: Listed[] = withTools.flatMap((frame) => frame.tools.map((tool) => ({ frame, tool, offeredByPage: pageOffers(frames ?? [], frame.frameId, tool.name) })));
  const debugging = listed.filter((l) => l.tool.annotations.debugging);
  return (
    <section aria-labelledby="tools-heading">
      <h3 id="tools-heading">Page tools (WebMCP)</h3>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {frames === undefined && !error && <p class="muted">Loading…</p>}
      {top && <p class="note webmcp-api">{API_LINE[top.api]}</p>}
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
      <ToolList label="Tools" items={listed.filter((l) => !l.tool.annotations.debugging)} />
      {debugging.length > 0 && (
        <section aria-labelledby="debugging-tools-heading">
          <h4 id="debugging-tools-heading">Debugging tools</h4>
          <p class="note">The page marks these as tools for its developers. Agents do not see them unless Settings says so.</p>
          <ToolList label="Debugging tools" items={debugging} />
        </section>
      )}
    </section>
  );
}
