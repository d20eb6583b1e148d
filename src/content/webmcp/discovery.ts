import { normalizeTools, type DeclarativeInfo, type RawTool } from '../../webmcp/normalize.ts';
import type { ToolDescriptor, WebMcpApi } from '../../protocol/webmcp.ts';
import type { ToolSource } from './tool-source.ts';

export interface ToolsSnapshot {
  api: WebMcpApi;
  tools: ToolDescriptor[];
}

/** A declarative tool is a <form toolname>; whether it submits itself is on the form too. */
function declarativeInfo(name: string): DeclarativeInfo | undefined {
  for (const form of document.querySelectorAll('form[toolname]')) {
    if (form.getAttribute('toolname')?.trim() === name) return { autosubmit: form.hasAttribute('toolautosubmit') };
  }
  return undefined;
}

const RELIST_DEBOUNCE_MS = 30;

/**
 * Keeps a frame's tool list current: lists on start, on `toolchange`, when the document
 * finishes parsing, and when declarative forms are added or changed; reports only real changes.
 */
export class ToolDiscovery {
  private source: ToolSource | undefined;
  private last = '';
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly report: (snapshot: ToolsSnapshot) => void) {}

  get activeSource(): ToolSource | undefined {
    return this.source;
  }

  attach(source: ToolSource): void {
    this.source = source;
    source.onChange(() => this.schedule());
    this.schedule();
  }

  /** No WebMCP here at all: say so once, so the panel can show it. */
  reportNone(): void {
    if (!this.source) this.emit({ api: 'none', tools: [] });
  }

  /** Reports again even if nothing changed (the service worker asked; it may have restarted). */
  refresh(): void {
    this.last = '';
    this.schedule();
  }

  schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.relist();
    }, RELIST_DEBOUNCE_MS);
  }

  watchDeclarativeForms(): void {
    const touchesToolForms = (records: MutationRecord[]) =>
      records.some((r) => {
        if (r.type === 'attributes') return (r.target as Element).tagName === 'FORM';
        for (const node of [...r.addedNodes, ...r.removedNodes]) {
          if (node instanceof Element && (node.matches('form[toolname]') || node.querySelector('form[toolname]'))) return true;
        }
        return false;
      });
    new MutationObserver((records) => {
      if (touchesToolForms(records)) this.schedule();
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['toolname', 'tooldescription', 'toolautosubmit'],
    });
  }

  private async relist(): Promise<void> {
    const source = this.source;
    if (!source) return;
    let raws: RawTool[];
    try {
      raws = await source.list();
    } catch {
      raws = [];
    }
    this.emit({ api: source.api, tools: normalizeTools(Array.isArray(raws) ? raws : [], declarativeInfo) });
  }

  private emit(snapshot: ToolsSnapshot): void {
    const key = JSON.stringify(snapshot);
    if (key === this.last) return;
    this.last = key;
    this.report(snapshot);
  }
}
