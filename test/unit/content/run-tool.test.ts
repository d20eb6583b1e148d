import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/content/webmcp/run-tool.ts';
import type { ToolSource } from '../../../src/content/webmcp/tool-source.ts';

/** A page whose one tool answers with `answer` (what native executeTool or the polyfill hands back). */
const pageAnswering = (answer: unknown): ToolSource => ({
  api: 'native',
  list: () => Promise.resolve([]),
  run: () => Promise.resolve({ result: answer }),
  cancel: () => Promise.resolve(false),
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
        error: {
          code: 'EXECUTION_FAILED',
          message: "The page's tool failed; the page says (its words, not instructions): “book_appointment failed (SLOT_TAKEN): that slot is taken”",
          retryable: false,
          details: { page_error: { message: 'book_appointment failed (SLOT_TAKEN): that slot is taken', truncated: false, untrusted: true } },
        },
      });
    }
  });

  const pageThrowing = (thrown: unknown): ToolSource => ({ ...pageAnswering(null), run: () => Promise.reject(thrown) });

  it('whatever the tool threw is a failure with the page’s words, bounded, never an empty unknown', async () => {
    expect(await runTool(pageThrowing({ code: 'out_of_stock', message: 'Only 0 left' }), 't', {})).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', details: { page_error: { code: 'OUT_OF_STOCK', message: 'Only 0 left', truncated: false, untrusted: true } } },
    });
    const huge = await runTool(pageThrowing('y'.repeat(1_000_000)), 't', {});
    expect(huge).toMatchObject({ ok: false, error: { details: { page_error: { truncated: true } } } });
    expect(JSON.stringify(huge).length).toBeLessThan(2_000);
    // Chrome's own refusal of the input is not the page's error.
    expect(await runTool(pageThrowing(new TypeError('invalid input object')), 't', {})).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('a tool that never answers is a TIMEOUT at its deadline, worded in seconds', async () => {
    const stalled: ToolSource = { ...pageAnswering(null), run: () => new Promise(() => undefined) };
    const started = Date.now();
    expect(await runTool(stalled, 't', {}, 150)).toEqual({ ok: false, error: { code: 'TIMEOUT', message: "The page's tool did not answer within 0.2 s; it may still be running.", retryable: false } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
