/**
 * Tells which `registerTool` calls come from the declarative forms (the MCP-B polyfill's
 * `<form toolname>` half) and which form each such tool stands for. Those forms are synced by a
 * MutationObserver, so a form that stops offering its tool (its `toolname` removed or changed, its
 * `tooldescription` removed, the form taken out of the document) keeps its registration until the
 * observer's callback runs, after the page's current script. Chrome drops it at once: a page may
 * remove a form's `toolname` and register an imperative tool of the same name in the same script
 * (the Chrome team's French bistro demo does). model-context.ts asks `formOf` to treat such a
 * registration as gone from that moment.
 */

/** The observers the declarative half creates while it installs report here when their callback runs. */
export interface DeclarativeSync {
  /** Whether a declarative sync (the observer's callback) is running now. */
  running(): boolean;
}

/**
 * Runs `install` (which sets up the declarative forms) with a MutationObserver whose callbacks say
 * when they run, then puts the page's own MutationObserver back: only observers created during
 * `install` are watched (the document's; those of shadow roots attached later are not, and their
 * forms keep the polyfill's observer timing).
 */
export function watchDeclarativeSync<T>(win: { MutationObserver: typeof MutationObserver }, install: () => T): { result: T; sync: DeclarativeSync } {
  let depth = 0;
  const Native = win.MutationObserver;
  class Watched extends Native {
    constructor(callback: MutationCallback) {
      super((records: MutationRecord[], observer: MutationObserver) => {
        depth++;
        try {
          callback.call(observer, records, observer);
        } finally {
          depth--;
        }
      });
    }
  }
  win.MutationObserver = Watched;
  try {
    return { result: install(), sync: { running: () => depth > 0 } };
  } finally {
    win.MutationObserver = Native;
  }
}

/** The connected form (in the document or an open shadow root) that offers a tool of this name, if any. */
export function formOffering(doc: Document, name: string): HTMLFormElement | undefined {
  const search = (root: Document | ShadowRoot): HTMLFormElement | undefined => {
    for (const form of root.querySelectorAll('form[toolname]')) {
      if (form instanceof HTMLFormElement && offers(form, name)) return form;
    }
    for (const element of root.querySelectorAll('*')) {
      const shadow = element.shadowRoot;
      const found = shadow ? search(shadow) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return search(doc);
}

/** Whether the form still offers the tool: connected, named so, and described. */
export function offers(form: HTMLFormElement, name: string): boolean {
  return form.isConnected && form.getAttribute('toolname') === name && form.hasAttribute('tooldescription');
}
