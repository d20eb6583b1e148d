/**
 * `ToolActivatedEvent` and `ToolCancelEvent`, as Chrome's WebMCP defines them: fired at the window
 * and at the `ModelContext` of the document whose tool runs, when a run starts and when its caller
 * cancels it. Installed as globals where the browser has none (the polyfill's pages), so a page
 * can test `event instanceof ToolActivatedEvent`. A polyfill cannot make them `isTrusted`.
 */
interface ToolEventInit extends EventInit {
  toolName?: string;
}

export class ToolActivatedEvent extends Event {
  readonly toolName: string;
  constructor(type: string, init: ToolEventInit = {}) {
    super(type, init);
    this.toolName = String(init.toolName ?? '');
  }
}

class ToolCancelEvent extends Event {
  readonly toolName: string;
  constructor(type: string, init: ToolEventInit = {}) {
    super(type, init);
    this.toolName = String(init.toolName ?? '');
  }
}

/** Defines the two constructors on the page's global, unless the browser has its own. */
export function installToolEventGlobals(global: object): void {
  for (const [name, value] of [
    ['ToolActivatedEvent', ToolActivatedEvent],
    ['ToolCancelEvent', ToolCancelEvent],
  ] as const) {
    if (!(name in global)) Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  }
}

/** Fires `type` for `toolName` at each target in turn (the window, then the ModelContext), a fresh event each. */
export function fireToolEvent(targets: readonly EventTarget[], type: 'toolactivated' | 'toolcancel', toolName: string): void {
  const Kind = type === 'toolactivated' ? ToolActivatedEvent : ToolCancelEvent;
  for (const target of targets) target.dispatchEvent(new Kind(type, { toolName }));
}
