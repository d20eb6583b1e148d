import type { ActReport } from '../../protocol/messages.ts';
import { redactUrl } from '../main/network-bounds.ts';

/**
 * Whether an act set off a navigation of this document, from the page's own events: the
 * Navigation API's `navigate` (a link, a form, `location.assign`, `history.pushState`), then
 * `beforeunload` / `pagehide` when the document is really being left. A navigation the page
 * intercepts (a single-page app's route change) stays in the document: the act settles as usual.
 * The worker waits for the tab to load only when this says the document is being left.
 */

interface NavigationLike extends EventTarget {
  transition?: unknown;
}

interface NavigateEventLike extends Event {
  destination?: { url?: string; sameDocument?: boolean };
  downloadRequest?: string | null;
}

export interface NavigationWatch {
  /** The document is being left (beforeunload / pagehide, or a navigate event nobody intercepted). */
  readonly leaving: boolean;
  report(): ActReport['navigation'];
  /** An act step saw the navigation start itself (a submitted form, a followed link). */
  note(url?: string): void;
  dispose(): void;
}

/** `changed`: called once the document is known to be left (settling wakes up for it). */
export function watchNavigation(view: Window, changed?: () => void): NavigationWatch {
  let seen: { same_document: boolean; url?: string } | undefined;
  let leaving = false;
  const nav = (view as unknown as { navigation?: NavigationLike }).navigation;
  const onNavigate = (event: Event) => {
    const e = event as NavigateEventLike;
    const url = e.destination?.url ? redactUrl(e.destination.url)?.slice(0, 512) : undefined;
    // A download does not leave the page.
    if (typeof e.downloadRequest === 'string') return;
    const same = e.destination?.sameDocument === true;
    seen = { same_document: same, ...(url ? { url } : {}) };
    if (same) return;
    // Listeners run in order and the page's came first: once they all ran, an intercepted
    // navigation has a transition; one left to the browser does not, and leaves the document.
    queueMicrotask(() => {
      if (e.defaultPrevented) seen = undefined;
      else if (nav?.transition) seen = { same_document: true, ...(url ? { url } : {}) };
      else {
        leaving = true;
        changed?.();
      }
    });
  };
  const onLeave = () => {
    leaving = true;
    seen = { same_document: false, ...(seen?.url ? { url: seen.url } : {}) };
    changed?.();
  };
  nav?.addEventListener('navigate', onNavigate);
  view.addEventListener('beforeunload', onLeave);
  view.addEventListener('pagehide', onLeave);
  return {
    get leaving() {
      return leaving;
    },
    report: () => (seen ? { ...seen } : undefined),
    note(url) {
      const clean = url ? redactUrl(url)?.slice(0, 512) : undefined;
      seen = { same_document: false, ...(clean ? { url: clean } : seen?.url ? { url: seen.url } : {}) };
    },
    dispose() {
      nav?.removeEventListener('navigate', onNavigate);
      view.removeEventListener('beforeunload', onLeave);
      view.removeEventListener('pagehide', onLeave);
    },
  };
}
