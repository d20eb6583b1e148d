/**
 * `ModelContextToolInvocation`, the `invocation` a tool's `execute` gets with its options (the
 * WebMCP continuations explainer): `requestToken()` asks for a continuation token, so that a later
 * same-origin document can go on with the call (`document.modelContext.resumeTool`). The token
 * comes from Steward's service worker, and only for an agent's call Steward sent: a call the page
 * made itself (its own `executeTool`) has nobody to continue it for, and is refused.
 */

/** How a run gets its token: the agent's run Steward sent, or none. */
export type TokenSource = (() => Promise<string>) | undefined;

const asking = new WeakMap<object, { ended: () => boolean; source: TokenSource; token?: Promise<string> }>();

export class ModelContextToolInvocation {
  /** Constructed by the polyfill only; a page's `new ModelContextToolInvocation()` gets one that issues nothing. */
  constructor() {
    asking.set(this, { ended: () => true, source: undefined });
  }

  /** A continuation token for this call: the same one however often it is asked; refused once the call has ended. */
  requestToken(): Promise<string> {
    const state = asking.get(this);
    if (!state) return Promise.reject(new TypeError('Illegal invocation'));
    if (state.ended()) return Promise.reject(new DOMException('The tool call has ended; no continuation token can be issued.', 'InvalidStateError'));
    if (!state.source) return Promise.reject(new DOMException('Continuation tokens are issued only for an agent’s call.', 'NotSupportedError'));
    state.token ??= state.source();
    return state.token;
  }
}

/** The invocation for one run: `ended` says when the run's answer is settled. */
export function invocationFor(ended: () => boolean, source: TokenSource): ModelContextToolInvocation {
  const invocation = new ModelContextToolInvocation();
  asking.set(invocation, { ended, source });
  return invocation;
}

/** Defines the constructor on the page's global, unless the browser has its own. */
export function installInvocationGlobal(global: object): void {
  if (!('ModelContextToolInvocation' in global)) {
    Object.defineProperty(global, 'ModelContextToolInvocation', { value: ModelContextToolInvocation, writable: true, configurable: true, enumerable: false });
  }
}
