import { ToolExecutionError, thrownError, type ToolSource } from './tool-source.ts';
import { describeThrown } from '../../webmcp/thrown.ts';
import type { RawTool } from '../../webmcp/normalize.ts';

interface NativeTool extends RawTool {
  name: string;
  /** Chromium 156: the window that registered the tool (getTools() is page-wide across same-origin frames). */
  window?: unknown;
}
interface NativeModelContext extends EventTarget {
  getTools(): Promise<NativeTool[]>;
  executeTool(tool: NativeTool, input: unknown, options?: { signal?: AbortSignal }): Promise<string | null>;
}

export function nativeModelContext(): NativeModelContext | undefined {
  const mc = (document as unknown as { modelContext?: unknown }).modelContext;
  if (!mc || typeof (mc as NativeModelContext).getTools !== 'function') return undefined;
  return mc as NativeModelContext;
}

/** Whether this frame's own document has a `<form toolname>` of that name. */
function hasOwnToolForm(name: string): boolean {
  for (const form of document.querySelectorAll('form[toolname]')) if (form.getAttribute('toolname')?.trim() === name) return true;
  return false;
}

/**
 * Whether the tool is this frame's own. Chromium's getTools() lists every tool of the page's
 * same-origin frames in each of them, naming the registering window: each frame reports only its
 * own, so the panel shows one card per tool, under the frame that registered it. A build that
 * names no window: the top frame reports all of them, an embedded frame only its own forms.
 */
function registeredHere(tool: NativeTool): boolean {
  if ('window' in tool) return tool.window === window;
  return window === window.top || hasOwnToolForm(tool.name);
}

/** Chrome's own document.modelContext, which the isolated world can call directly. */
export class NativeToolSource implements ToolSource {
  readonly api = 'native' as const;
  constructor(private readonly mc: NativeModelContext) {}

  async list(): Promise<RawTool[]> {
    return (await this.mc.getTools()).filter(registeredHere);
  }

  /** The agents' runs going now, by run id: Stop aborts them through Chrome's own executeTool signal. */
  private readonly running = new Map<string, AbortController>();

  async run(name: string, input: Record<string, unknown>, _deadlineMs?: number, runId?: string) {
    // Same-origin frames may each register a tool of this name: this frame's own comes first.
    const named = (await this.mc.getTools()).filter((t) => t.name === name);
    const tool = named.find(registeredHere) ?? named[0];
    if (!tool) throw new ToolExecutionError('TOOL_NOT_FOUND', `The page has no tool named "${name}" any more.`);
    const started = Date.now();
    const controller = runId ? new AbortController() : undefined;
    if (runId && controller) this.running.set(runId, controller);
    const options = controller ? { signal: controller.signal } : undefined;
    try {
      try {
        return { result: await this.mc.executeTool(tool, input, options) };
      } catch (error) {
        // Earlier Chrome builds took the input as a JSON string; retry once in that shape.
        if (error instanceof TypeError && /input/i.test(error.message)) return { result: await this.mc.executeTool(tool, JSON.stringify(input), options) };
        throw error;
      }
    } catch (error) {
      throw await this.failure(name, started, error);
    } finally {
      if (runId) this.running.delete(runId);
    }
  }

  cancel(runId: string): Promise<boolean> {
    const controller = this.running.get(runId);
    controller?.abort(new DOMException('The person stopped the agent’s call.', 'AbortError'));
    return Promise.resolve(controller !== undefined);
  }

  /**
   * Chrome reports every throw as one generic UnknownError; what the tool really threw is asked
   * of the main world, which saw it (src/content/main/thrown-capture.ts). Without an answer, the
   * browser's own message is all there is.
   */
  private async failure(name: string, started: number, error: unknown): Promise<unknown> {
    if (error instanceof TypeError) return error;
    const wire = await this.thrownLookup?.(name, started).catch(() => undefined);
    if (wire) return thrownError(wire);
    return thrownError(describeThrown(error));
  }

  /** Set once the main world's port is there: asks what a tool threw since a time. */
  thrownLookup: ((name: string, since: number) => Promise<{ code?: string | undefined; message: string; truncated: boolean } | undefined>) | undefined;

  onChange(listener: () => void): void {
    this.mc.addEventListener('toolchange', listener);
  }
}
