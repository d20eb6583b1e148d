import { useEffect, useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import type { FrameTools, ToolDescriptor } from '../../protocol/webmcp.ts';
import { getTabTools, subscribe } from '../background-client.ts';
import { currentTabId } from '../current-tab.ts';
import { pageOffers } from '../../protocol/page-tools.ts';
import { ToolCard } from './ToolCard.tsx';

type Api = FrameTools['api'];
const apiLabel = (api: Api): string => t(`tools_api_${api}`);
/** What an empty list means, per API: "none registered" differs from "none possible". */
const apiNote = (api: Api): string => t(`tools_note_${api}`);
/**
 * Which WebMCP the tab's page has, as its top frame's content script found it at run time: the
 * browser's own `document.modelContext` (Chromium with the WebMCP feature on), Steward's polyfill
 * (injected where the browser has none), or neither.
 */
const apiLine = (api: Api): string => t(`tools_line_${api}`);

type Listed = { frame: FrameTools; tool: ToolDescriptor; offeredByPage: boolean };

function ToolList({ label, items }: { label: string; items: Listed[] }) {
  return (
    <div role="list" aria-label={label} style="display:grid;gap:8px">
      {items.map(({ frame, tool, offeredByPage }) => (
        <div role="listitem" key={`${frame.frameId}:${tool.name}`}>
          <ToolCard tabId={frame.tabId} frame={frame} tool={tool} apiLabel={apiLabel(frame.api)} offeredByPage={offeredByPage} />
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
      <h3 id="tools-heading">{t('tools_heading')}</h3>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {frames === undefined && !error && <p class="muted">{t('app_loading')}</p>}
      {top && <p class="note webmcp-api">{apiLine(top.api)}</p>}
      {frames !== undefined && count === 0 && (
        <p class="muted" role="status">
          {t('tools_none')} {frames[0] ? apiNote(frames[0].api) : t('tools_not_heard')}
        </p>
      )}
      {count > 0 && (
        <p class="muted" role="status">
          {t(pluralOf(count) === 'one' ? 'tools_count_one' : 'tools_count_other', count)}
        </p>
      )}
      <ToolList label={t('tools_list_label')} items={listed.filter((l) => !l.tool.annotations.debugging)} />
      {debugging.length > 0 && (
        <section aria-labelledby="debugging-tools-heading">
          <h4 id="debugging-tools-heading">{t('tools_debugging_heading')}</h4>
          <p class="note">{t('tools_debugging_note')}</p>
          <ToolList label={t('tools_debugging_heading')} items={debugging} />
        </section>
      )}
    </section>
  );
}
