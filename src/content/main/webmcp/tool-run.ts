/**
 * One run of a registered tool, as Chrome's executeTool runs it: the tool gets its own
 * AbortSignal; the caller's abort rejects the run at once with the caller's reason, then (a task
 * later) aborts the tool's signal and fires `toolcancel`; `toolactivated` fires once the tool has
 * started. The run answers with the tool's own result even if the tool unregistered itself
 * meanwhile (a tool that swaps itself for another): a registration's end stops new runs, not
 * this one. Its options carry an `invocation` (invocation.ts) whose `requestToken()` asks
 * Steward for a continuation token when the run is an agent's.
 */
import { invocationFor, type TokenSource } from './invocation.ts';
import type { ToolEntry } from './tool-registry.ts';

export interface RunHooks {
  /** Fires `toolactivated` (window, then ModelContext). */
  activated(name: string): void;
  /** Fires `toolcancel` (window, then ModelContext). */
  cancelled(name: string): void;
  /** Around the tool's synchronous start: the declarative forms announce activation themselves, in their own shape, which this silences. */
  startingSync<T>(name: string, start: () => T): T;
}

const invocationFailed = (error: unknown) =>
  new DOMException(`Tool was executed but the invocation failed${error instanceof Error || error instanceof DOMException ? `: ${error.message}` : ''}`, 'UnknownError');

/** The tool's answer as Chrome returns it: a string as is, anything else as JSON; nothing (undefined) is null. */
function serializeResult(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return String(value);
  }
}

export function runTool(entry: Pick<ToolEntry, 'name' | 'execute'>, input: unknown, callerSignal: AbortSignal | undefined, hooks: RunHooks, tokens?: TokenSource): Promise<string | null> {
  if (callerSignal?.aborted) return Promise.reject(callerSignal.reason);
  const toolSignal = new AbortController();
  return new Promise<string | null>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      callerSignal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = () =>
      settle(() => {
        reject(callerSignal!.reason);
        setTimeout(() => {
          toolSignal.abort(new DOMException('The caller cancelled the tool call.', 'AbortError'));
          hooks.cancelled(entry.name);
        }, 0);
      });
    callerSignal?.addEventListener('abort', onAbort, { once: true });
    let answer: unknown;
    try {
      const invocation = invocationFor(() => settled, tokens);
      answer = hooks.startingSync(entry.name, () => entry.execute(input, { signal: toolSignal.signal, invocation }));
    } catch (error) {
      settle(() => reject(invocationFailed(error)));
      return;
    }
    hooks.activated(entry.name);
    Promise.resolve(answer).then(
      (value) => settle(() => resolve(serializeResult(value))),
      (error: unknown) => settle(() => reject(invocationFailed(error))),
    );
  });
}
