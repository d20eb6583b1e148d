import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/content/webmcp/run-tool.ts';
import type { ToolSource } from '../../../src/content/webmcp/tool-source.ts';

/** A page whose one tool answers with `answer` (what native executeTool or the polyfill hands back). */
const pageAnswering = (answer: unknown): ToolSource => ({
  api: 'native',
  list: () => Promise.resolve([]),
  run: () => Promise.resolve({ result: answer }),
  onChange: () => undefined,
});

describe('runTool', () => {
  it('a tool that answered is a result: its text, or null for a form submitted without an answer', async () => {
    expect(await runTool(pageAnswering('Booked Dr. Okafor.'), 'book_appointment', {})).toEqual({ ok: true, result: 'Booked Dr. Okafor.', truncated: false, untrusted: true });
    expect(await runTool(pageAnswering(null), 'book_appointment', {})).toMatchObject({ ok: true, result: null });
  });

  it('a tool that answered with isError failed, as an object (polyfill) or serialised by Chrome, with the page’s reason', async () => {
    const failed = { content: [{ type: 'text', text: 'book_appointment failed (SLOT_TAKEN): that slot is taken' }], isError: true };
    for (const answer of [failed, JSON.stringify(failed)]) {
      expect(await runTool(pageAnswering(answer), 'book_appointment', {})).toEqual({
        ok: false,
        error: { code: 'EXECUTION_FAILED', message: "The page's tool reported an error: book_appointment failed (SLOT_TAKEN): that slot is taken", retryable: false },
      });
    }
  });
});
