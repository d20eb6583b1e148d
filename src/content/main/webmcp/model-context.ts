/**
 * Steward's WebMCP polyfill core: `document.modelContext`'s registerTool / getTools / executeTool
 * as Chrome's native API behaves (checked against the web-platform-tests `webmcp/` suite,
 * test/fixtures/wpt-webmcp/). The MCP-B polyfill, installed through @mcp-b/global
 * (start-polyfill.ts), supplies the ModelContext object, its `toolchange` plumbing and the
 * declarative `<form toolname>` half; its imperative methods are replaced here, because they
 * refuse `exposedTo`, fail a run whose tool unregisters itself, drop execute's signal and every
 * annotation but two, and see no other frame.
 *
 * Frames: each frame runs its own copy of this script, and each document's tools stay in its own
 * realm. A document lists and runs the tools of the page's other same-origin documents through a
 * handle on their ModelContext (reachable because they are same-origin), as Chrome does
 * page-wide. Cross-origin documents cannot be reached synchronously from a polyfill: their tools
 * are not listed (`fromOrigins` asks for them; Chrome alone delivers them).
 */
import { fireToolEvent, installToolEventGlobals, ToolActivatedEvent } from './tool-events.ts';
import { originList, toolEntry, ToolRegistry, type ListedTool, type ToolEntry } from './tool-registry.ts';
import { runTool, type RunHooks } from './tool-run.ts';
import { formOffering, offers, type DeclarativeSync } from './declarative-sync.ts';
import { installInvocationGlobal, type TokenSource } from './invocation.ts';
import { markActiveForm } from './form-active.ts';

/** The handle one document's copy of this script leaves on its ModelContext for the page's other same-origin documents. */
const HANDLE = Symbol.for('steward.webmcp.document');

interface DocumentHandle {
  readonly origin: string;
  readonly window: Window;
  list(callerOrigin: string): ListedTool[];
  run(name: string, input: unknown, signal: AbortSignal | undefined, callerOrigin: string, tokens?: TokenSource): Promise<string | null>;
  /** Fires `toolchange` here (another document's tools changed). */
  changed(): void;
}

interface ModelContextLike extends EventTarget {
  registerTool(tool: unknown, options?: unknown): Promise<void>;
  getTools(options?: unknown): Promise<ListedTool[]>;
  executeTool(tool: unknown, input?: unknown, options?: unknown): Promise<string | null>;
  resumeTool(token: unknown, callback: unknown): Promise<void>;
}

/** Steward's side of the continuations: the service worker redeems a token (resolves with the tool's name) or refuses it (rejects). */
export interface ContinuationRedeemer {
  redeem(token: string): Promise<string>;
}

/** What the page channel (page-channel-server.ts) runs for an agent's call: never reachable from the page. */
export interface StewardRuns {
  /** An agent's call of `tool`: executeTool's rules, and the run's continuation tokens from Steward. */
  execute(tool: unknown, input: unknown, signal: AbortSignal | undefined, tokens: TokenSource): Promise<string | null>;
  /** The next link of a continued call: the callback this document gave `resumeTool(token, …)`. */
  resumed(token: string, name: string, input: unknown, signal: AbortSignal | undefined, tokens: TokenSource): Promise<string | null>;
}

const notFound = (name: string) => new DOMException(`Tool not found: ${name}`, 'UnknownError');

function handleOf(win: Window): DocumentHandle | undefined {
  try {
    const mc = (win.document as unknown as { modelContext?: Record<symbol, unknown> }).modelContext;
    const handle = mc?.[HANDLE] as DocumentHandle | undefined;
    return handle && typeof handle.list === 'function' ? handle : undefined;
  } catch {
    return undefined; // a cross-origin document
  }
}

/** Every same-origin document of the page that runs this polyfill: this one first, then the frame tree from the top. */
function pageDocuments(self: DocumentHandle): DocumentHandle[] {
  const found: DocumentHandle[] = [self];
  const walk = (win: Window) => {
    const handle = handleOf(win);
    if (handle && handle !== self && handle.origin === self.origin) found.push(handle);
    for (let i = 0; i < win.frames.length; i++) walk(win.frames[i] as Window);
  };
  try {
    walk(self.window.top ?? self.window);
  } catch {
    // A frame went away mid-walk: list what was found.
  }
  return found;
}

/** The input as Chrome (156) takes it: an object (arrays too) that serializes to JSON; nothing means `{}`. */
function toolInput(input: unknown): unknown {
  if (input === undefined) return {};
  if (input === null || typeof input !== 'object') throw new TypeError('The tool input must be an object');
  const text = JSON.stringify(input);
  if (text === undefined) throw new TypeError('The tool input must serialize to JSON');
  return JSON.parse(text);
}

/**
 * Makes `mc` (this document's polyfilled ModelContext) behave as Chrome's: replaces the three
 * methods on its prototype (the declarative forms call them too) and leaves this document's
 * handle on it for the page's other frames.
 */
export function installStewardModelContext(mc: ModelContextLike, win: Window, declarativeSync?: DeclarativeSync, continuations?: ContinuationRedeemer): StewardRuns {
  installToolEventGlobals(win);
  installInvocationGlobal(win);
  /** The callbacks this document gave `resumeTool`, by token, until Steward runs them (once). */
  const resumable = new Map<string, (input: unknown, options: unknown) => unknown>();
  const registry = new ToolRegistry();
  /** Each declarative registration's form: once the form stops offering the tool, the tool is gone, as in Chrome, before the forms' observer catches up. */
  const formOf = new Map<ToolEntry, HTMLFormElement>();
  const gone = (entry: ToolEntry) => {
    const form = formOf.get(entry);
    return form !== undefined && !offers(form, entry.name);
  };
  const live = (name: string) => {
    const entry = registry.named(name);
    return entry !== undefined && !gone(entry);
  };
  const origin = win.origin;
  // The declarative forms announce a run with a plain Event of their own during the tool's
  // synchronous start; a run announces itself (as a ToolActivatedEvent), so theirs is dropped.
  let starting: string | undefined;
  win.addEventListener(
    'toolactivated',
    (event) => {
      if (starting !== undefined && (event as { toolName?: unknown }).toolName === starting && !(event instanceof ToolActivatedEvent)) {
        event.stopImmediatePropagation();
      }
    },
    true,
  );
  const hooks: RunHooks = {
    activated: (name) => fireToolEvent([win, mc], 'toolactivated', name),
    cancelled: (name) => fireToolEvent([win, mc], 'toolcancel', name),
    startingSync: (name, start) => {
      const outer = starting;
      starting = name;
      try {
        return start();
      } finally {
        starting = outer;
      }
    },
  };
  const handle: DocumentHandle = {
    origin,
    window: win,
    list: (callerOrigin) => registry.list(origin, win, callerOrigin).filter((tool) => live(tool.name)),
    run: (name, input, signal, callerOrigin, tokens) => {
      const entry = registry.find(name, origin, callerOrigin);
      if (!entry || gone(entry)) return Promise.reject(notFound(name));
      // A declarative form shows it is being filled and sent (a polyfill cannot add :tool-form-active).
      const form = formOf.get(entry);
      const unmark = form ? markActiveForm(form) : undefined;
      const run = runTool(entry, input, signal, hooks, tokens);
      if (unmark) void run.then(unmark, unmark);
      return run;
    },
    changed: () => mc.dispatchEvent(new Event('toolchange')),
  };
  Object.defineProperty(mc, HANDLE, { value: handle });

  /** A task later (as the polyfill always did), `toolchange` here and in the page's other same-origin documents, which list these tools too. */
  const toolsChanged = () =>
    new Promise<void>((resolve) =>
      setTimeout(() => {
        for (const doc of pageDocuments(handle)) doc.changed();
        resolve();
      }, 0),
    );

  /** executeTool's checks and routing, for the page's own calls (no tokens) and for an agent's (Steward's tokens). */
  const execute = (tool: unknown, input: unknown, signal: AbortSignal | undefined, tokens: TokenSource): Promise<string | null> => {
    try {
      if (tool === null || typeof tool !== 'object') throw new TypeError('executeTool(tool) requires a RegisteredTool');
      for (const member of ['name', 'description', 'window', 'origin']) if (!(member in tool)) throw new TypeError(`RegisteredTool.${member} is required`);
      const { name, window: toolWindow, origin: toolOrigin } = tool as { name: unknown; window: unknown; origin: unknown };
      if (signal?.aborted) return Promise.reject(signal.reason);
      const args = toolInput(input);
      const target = pageDocuments(handle).find((doc) => doc.window === toolWindow && doc.origin === toolOrigin);
      if (!target) throw notFound(String(name));
      return target.run(String(name), args, signal, origin, tokens);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  const proto = Object.getPrototypeOf(mc) as ModelContextLike;
  const own = (self: unknown): self is ModelContextLike => self === mc;
  const methods: Pick<ModelContextLike, 'registerTool' | 'getTools' | 'executeTool' | 'resumeTool'> = {
    async registerTool(this: unknown, tool: unknown, options?: unknown) {
      if (!own(this)) throw new TypeError('Illegal invocation');
      const opts = (options ?? {}) as { signal?: AbortSignal; exposedTo?: unknown };
      const entry = toolEntry(tool, originList(opts.exposedTo, 'exposedTo'));
      opts.signal?.throwIfAborted();
      const form = declarativeSync?.running() ? formOffering(win.document, entry.name) : undefined;
      // A form that no longer offers its tool has let go of the name, as in Chrome.
      const previous = registry.named(entry.name);
      if (previous && gone(previous)) {
        registry.remove(previous);
        formOf.delete(previous);
      }
      registry.add(entry);
      if (form) formOf.set(entry, form);
      opts.signal?.addEventListener(
        'abort',
        () => {
          formOf.delete(entry);
          void (registry.remove(entry) && toolsChanged());
        },
        { once: true },
      );
      await toolsChanged();
    },
    async getTools(this: unknown, options?: unknown) {
      if (!own(this)) throw new TypeError('Illegal invocation');
      // Checked as Chrome checks them; the cross-origin documents they name are beyond a polyfill's reach.
      originList((options as { fromOrigins?: unknown } | undefined)?.fromOrigins, 'fromOrigins');
      const tools = pageDocuments(handle).flatMap((doc) => doc.list(origin));
      await new Promise((resolve) => setTimeout(resolve, 0));
      return tools;
    },
    executeTool(this: unknown, tool: unknown, input?: unknown, options?: unknown) {
      if (!own(this)) return Promise.reject(new TypeError('Illegal invocation'));
      // The page's own call: nobody to continue it for, so no continuation tokens.
      return execute(tool, input, (options as { signal?: AbortSignal } | undefined)?.signal, undefined);
    },
    /**
     * Asks Steward to go on with a call whose tool asked for `token` in an earlier document: once
     * accepted, Steward runs `callback` here with the call's input. The callback is kept before
     * asking, so Steward's run cannot arrive before it.
     */
    async resumeTool(this: unknown, token: unknown, callback: unknown) {
      if (!own(this)) throw new TypeError('Illegal invocation');
      if (typeof callback !== 'function') throw new TypeError('resumeTool(token, callback) requires a callback');
      const key = String(token);
      if (!continuations) throw new DOMException('Tool continuations are not available here.', 'NotSupportedError');
      if (resumable.has(key)) throw new DOMException('This continuation token was already redeemed.', 'NotAllowedError');
      resumable.set(key, (input, opts) => Reflect.apply(callback, undefined, [input, opts]));
      try {
        await continuations.redeem(key);
      } catch (error) {
        resumable.delete(key);
        throw new DOMException(`The continuation token was refused: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500), 'NotAllowedError');
      }
    },
  };
  for (const [key, value] of Object.entries(methods)) {
    Object.defineProperty(proto, key, { value, writable: true, configurable: true, enumerable: true });
  }
  return {
    execute,
    resumed(token, name, input, signal, tokens) {
      const callback = resumable.get(token);
      if (!callback) return Promise.reject(new DOMException('This document has no resumeTool callback for that token.', 'NotFoundError'));
      resumable.delete(token);
      try {
        return runTool({ name, execute: callback }, toolInput(input), signal, hooks, tokens);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
