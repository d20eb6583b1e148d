import { describe, expect, it, vi } from 'vitest';
import { DeadlineExceeded } from '../../../../src/base/deadline.ts';
import { tabMessenger } from '../../../../src/background/core/messenger.ts';

const open = { gate: async () => undefined };
const deadlines = { tool_run_ms: 100, tool_list_ms: 10, page_reply_ms: 20, reply_grace_ms: 5, execution_ms: 200, continuation_token_ms: 100 };

describe('tabMessenger', () => {
  it('sends to one document when pinned, else to the frame', async () => {
    const sendMessage = vi.fn(async () => ({ ok: true, data: null }));
    const send = tabMessenger(open, deadlines, sendMessage);
    await send(3, 0, 'content/run-tool', { name: 't', input: {} }, { documentId: 'doc-A' });
    await send(3, 2, 'content/observe', {});
    expect(sendMessage.mock.calls).toEqual([
      [3, { type: 'content/run-tool', name: 't', input: {} }, { documentId: 'doc-A' }],
      [3, { type: 'content/observe' }, { frameId: 2 }],
    ]);
  });

  it('a page that never answers rejects with DeadlineExceeded at the deadline it was given, or page_reply_ms', async () => {
    const send = tabMessenger(open, deadlines, () => new Promise(() => undefined));
    await expect(send(3, 0, 'content/observe', {})).rejects.toMatchObject({ name: 'DeadlineExceeded', ms: 20 });
    await expect(send(3, 0, 'content/run-tool', { name: 't', input: {} }, { deadline_ms: 30 })).rejects.toBeInstanceOf(DeadlineExceeded);
  });

  it('sends nothing to a site Steward is not allowed on', async () => {
    const sendMessage = vi.fn(async () => ({ ok: true, data: null }));
    const refusal = { code: 'SITE_NOT_ALLOWED', message: 'no', retryable: false };
    const send = tabMessenger({ gate: async () => refusal } as never, deadlines, sendMessage);
    expect(await send(3, 0, 'content/observe', {})).toEqual({ ok: false, error: refusal });
    expect(sendMessage).not.toHaveBeenCalled();
  });

  it('parses each answer with its request’s reply schema', async () => {
    const send = tabMessenger(open, deadlines, async () => ({ ok: true, data: { records: [] } }));
    expect(await send(3, 0, 'content/network', {})).toEqual({ ok: true, data: { records: [] } });
    expect(await send(3, 0, 'content/act', { steps: [{ op: 'click', ref: 'e1' }] })).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
    const silent = tabMessenger(open, deadlines, async () => undefined);
    expect(await silent(3, 0, 'content/network', {})).toMatchObject({ ok: false, error: { code: 'NO_CONTENT_SCRIPT', retryable: true } });
  });
});
