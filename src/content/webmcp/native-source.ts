import { ToolExecutionError, type ToolSource } from './tool-source.ts';
import type { RawTool } from '../../webmcp/normalize.ts';

interface NativeTool extends RawTool {
  name: string;
}
interface NativeModelContext extends EventTarget {
  getTools(): Promise<NativeTool[]>;
  executeTool(tool: NativeTool, input: unknown): Promise<string | null>;
}

export function nativeModelContext(): NativeModelContext | undefined {
  const mc = (document as unknown as { modelContext?: unknown }).modelContext;
  if (!mc || typeof (mc as NativeModelContext).getTools !== 'function') return undefined;
  return mc as NativeModelContext;
}

/** Chrome's own document.modelContext, which the isolated world can call directly. */
export class NativeToolSource implements ToolSource {
  readonly api = 'native' as const;
  constructor(private readonly mc: NativeModelContext) {}

  list(): Promise<RawTool[]> {
    return this.mc.getTools();
  }

  async run(name: string, input: Record<string, unknown>) {
    const tool = (await this.mc.getTools()).find((t) => t.name === name);
    if (!tool) throw new ToolExecutionError('TOOL_NOT_FOUND', `The page has no tool named "${name}" any more.`);
    try {
      return { result: await this.mc.executeTool(tool, input) };
    } catch (error) {
      // Earlier Chrome builds took the input as a JSON string; retry once in that shape.
      if (error instanceof TypeError && /input/i.test(error.message)) {
        return { result: await this.mc.executeTool(tool, JSON.stringify(input)) };
      }
      throw error;
    }
  }

  onChange(listener: () => void): void {
    this.mc.addEventListener('toolchange', listener);
  }
}
