import { presenceLine, type TabPresence } from '../../protocol/presence.ts';
import { markOwn } from './own-elements.ts';

/**
 * Steward's indicator on a page an agent acts on (issue 30.4), drawn by the isolated world in a
 * closed shadow root of an element Steward creates: who acts (names are untrusted: set as text,
 * never as markup), a Stop per agent, and a box over the element being acted on (drawn in the
 * same shadow root; the page's element is never restyled). The page cannot reach into the root;
 * if it removes the host, it is put back while an agent acts. Stop answers only a trusted click (a
 * person's, never a page's `click()` or dispatched event) and goes to the worker, never through
 * the page.
 */

export interface IndicatorDeps {
  doc: Document;
  /** The live element behind a ref of the top frame's latest observation. */
  elementFor(ref: string): Element | undefined;
  /** The person pressed Stop for this agent. */
  stop(agentId: string): void;
}

/** Inline and !important: a page's stylesheet cannot hide, move or restyle the host (an inline !important declaration wins over every author rule). */
const HOST_STYLE = [
  'all: initial',
  'display: block',
  'position: fixed',
  'top: 0',
  'left: 0',
  'width: 0',
  'height: 0',
  'overflow: visible',
  'z-index: 2147483647',
  'pointer-events: none',
  'visibility: visible',
  'opacity: 1',
  'transform: none',
  'filter: none',
  'contain: none',
]
  .map((d) => `${d} !important`)
  .join('; ');

const SHADOW_CSS = `
.card { position: fixed; right: 12px; bottom: 12px; max-width: 320px; box-sizing: border-box; padding: 8px 10px;
  font: 13px/1.35 system-ui, sans-serif; color: #1b1b1f; background: #fff; border: 2px solid #1a5fb4; border-radius: 10px;
  box-shadow: 0 2px 10px rgba(0,0,0,.25); pointer-events: none; display: flex; flex-direction: column; gap: 6px; }
.card.top { top: 12px; bottom: auto; }
.brand { font-weight: 600; color: #1a5fb4; }
.row { display: flex; align-items: center; gap: 8px; }
.line { flex: 1; overflow-wrap: anywhere; }
.waiting .line { color: #8c1d18; }
button { pointer-events: auto; font: inherit; font-weight: 600; padding: 3px 10px; border-radius: 6px; border: 1px solid #8c1d18;
  background: #b3261e; color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
.outline { position: fixed; box-sizing: border-box; border: 3px solid #1a5fb4; border-radius: 4px; background: rgba(26,95,180,.08);
  pointer-events: none; display: none; }
`;

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The element's box in the top frame's viewport (through same-origin frames). */
function viewportRect(el: Element): Rect {
  const r = el.getBoundingClientRect();
  let left = r.left;
  let top = r.top;
  let frame = el.ownerDocument.defaultView?.frameElement;
  for (let i = 0; frame && i < 16; i++) {
    const f = frame.getBoundingClientRect();
    left += f.left + frame.clientLeft;
    top += f.top + frame.clientTop;
    frame = frame.ownerDocument.defaultView?.frameElement;
  }
  return { left, top, width: r.width, height: r.height };
}

const overlaps = (a: Rect, b: DOMRect) => a.left < b.right && b.left < a.left + a.width && a.top < b.bottom && b.top < a.top + a.height;

export class StewardIndicator {
  private host: HTMLElement | undefined;
  private card: HTMLElement | undefined;
  private outline: HTMLElement | undefined;
  private presence: TabPresence | null = null;
  private guard: MutationObserver | undefined;
  private frame = 0;
  private reattach: ReturnType<typeof setTimeout> | undefined;
  /** The card left its corner for this target already (a tall target would otherwise flip it every frame). */
  private movedFor: string | undefined;

  constructor(private readonly deps: IndicatorDeps) {}

  show(presence: TabPresence | null): void {
    this.presence = presence;
    if (!presence) return this.hide();
    this.build();
    this.render(presence);
    this.attach();
    this.watch();
    this.follow();
  }

  private hide(): void {
    this.guard?.disconnect();
    this.guard = undefined;
    if (this.reattach !== undefined) clearTimeout(this.reattach);
    this.reattach = undefined;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.host?.remove();
  }

  private build(): void {
    if (this.host) return;
    const { doc } = this.deps;
    const host = doc.createElement('div');
    markOwn(host);
    host.setAttribute('style', HOST_STYLE);
    const root = host.attachShadow({ mode: 'closed' });
    const style = doc.createElement('style');
    style.textContent = SHADOW_CSS;
    const card = doc.createElement('div');
    card.className = 'card';
    card.setAttribute('role', 'status');
    card.setAttribute('aria-label', 'Steward');
    const outline = doc.createElement('div');
    outline.className = 'outline';
    root.append(style, outline, card);
    this.host = host;
    this.card = card;
    this.outline = outline;
  }

  private render(presence: TabPresence): void {
    const { doc } = this.deps;
    const card = this.card!;
    const brand = doc.createElement('div');
    brand.className = 'brand';
    brand.textContent = 'Steward';
    const rows = presence.agents.map((agent) => {
      const row = doc.createElement('div');
      row.className = agent.phase === 'awaiting_approval' ? 'row waiting' : 'row';
      const line = doc.createElement('span');
      line.className = 'line';
      // Text, never markup: the name is the client's own word for itself.
      line.textContent = presenceLine(agent);
      const stop = doc.createElement('button');
      stop.type = 'button';
      stop.textContent = 'Stop';
      stop.setAttribute('aria-label', `Stop ${agent.name}`);
      stop.addEventListener('click', (event) => {
        // A page can call click() or dispatch a click at the host; only the person's own click is trusted.
        if (!event.isTrusted) return;
        event.preventDefault();
        event.stopPropagation();
        this.deps.stop(agent.agent_id);
      });
      row.append(line, stop);
      return row;
    });
    card.replaceChildren(brand, ...rows);
  }

  private attach(): void {
    const host = this.host!;
    const parent = this.deps.doc.documentElement;
    if (host.parentNode !== parent && parent) parent.append(host);
    if (host.getAttribute('style') !== HOST_STYLE) host.setAttribute('style', HOST_STYLE);
  }

  /** A page that removes (or restyles) the host gets it back while an agent acts; re-attached on a later task, so a page that keeps removing it cannot lock the tab in a loop. */
  private watch(): void {
    if (this.guard) return;
    this.guard = new MutationObserver(() => {
      const host = this.host;
      if (!this.presence || !host || (host.isConnected && host.getAttribute('style') === HOST_STYLE)) return;
      this.reattach ??= setTimeout(() => {
        this.reattach = undefined;
        if (this.presence) this.attach();
      }, 0);
    });
    this.guard.observe(this.deps.doc, { childList: true, subtree: true });
    this.guard.observe(this.host!, { attributes: true });
  }

  /** The outline follows the target as the page scrolls or moves it; the card leaves the corner the target is in. */
  private follow(): void {
    if (this.frame) return;
    const step = () => {
      this.frame = 0;
      if (!this.presence) return;
      this.place();
      this.frame = requestAnimationFrame(step);
    };
    this.frame = requestAnimationFrame(step);
  }

  private place(): void {
    const ref = this.presence?.target_ref;
    const el = ref ? this.deps.elementFor(ref) : undefined;
    const outline = this.outline!;
    const card = this.card!;
    if (!el?.isConnected) {
      outline.style.display = 'none';
      return;
    }
    const r = viewportRect(el);
    outline.style.display = 'block';
    outline.style.left = `${r.left - 4}px`;
    outline.style.top = `${r.top - 4}px`;
    outline.style.width = `${r.width + 8}px`;
    outline.style.height = `${r.height + 8}px`;
    // Never on top of what the agent acts on: the person should see it, and an agent's click must reach it.
    if (this.movedFor !== ref && overlaps(r, card.getBoundingClientRect())) {
      card.classList.toggle('top');
      this.movedFor = ref;
    }
  }
}
