import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { channelClient, type Handlers } from '../../../src/protocol/channel.ts';
import { answerCorrelated, correlator, type CorrelatedRequest } from '../../../src/protocol/correlated-channel.ts';

const Map = {
  'demo/add': { request: z.object({ a: z.number(), b: z.number() }), reply: z.object({ sum: z.number() }) },
};
const handlers: Handlers<typeof Map, void> = { 'demo/add': ({ a, b }) => ({ ok: true, data: { sum: a + b } }) };

/** A correlator whose posts are kept for the test to answer. */
function harness(deadlineMs = 1000) {
  const posted: CorrelatedRequest<typeof Map>[] = [];
  const replies = correlator<typeof Map>(
    (request) => posted.push(request),
    () => deadlineMs,
    (message, ms) => new Error(`${message.type} expired after ${ms} ms`),
  );
  return { posted, replies, client: channelClient(Map, (m) => replies.send(m)) };
}

describe('an id-correlated channel', () => {
  it('posts { id, type, ...payload } and pairs the answer by id; the receiver answers { id, reply }', async () => {
    const { posted, replies, client } = harness();
    const call = client.call('demo/add', { a: 2, b: 3 });
    expect(posted).toEqual([{ id: 1, type: 'demo/add', a: 2, b: 3 }]);
    await answerCorrelated(Map, handlers, posted[0], undefined, (answer) => expect(replies.receive(answer)).toBe(true));
    expect(await call).toEqual({ ok: true, data: { sum: 5 } });
  });

  it('ignores answers with unknown, mismatched or malformed ids, and answers each id once', async () => {
    const { posted, replies, client } = harness();
    const call = client.call('demo/add', { a: 1, b: 1 });
    const right = { id: posted[0]!.id, reply: { ok: true, data: { sum: 2 } } };
    for (const junk of [{ id: 99, reply: { ok: true, data: { sum: 7 } } }, { id: '1', reply: {} }, { id: -1, reply: {} }, { id: 1.5, reply: {} }, { reply: {} }, null, 'x', { type: 'changed' }]) {
      expect(replies.receive(junk)).toBe(false);
    }
    expect(replies.receive(right)).toBe(true);
    expect(replies.receive({ ...right, reply: { ok: true, data: { sum: 9 } } })).toBe(false);
    expect(await call).toEqual({ ok: true, data: { sum: 2 } });
  });

  it('refuses an answer that does not fit its type’s reply schema (INVALID_REPLY), never half-trusting it', async () => {
    const { posted, replies, client } = harness();
    const call = client.call('demo/add', { a: 1, b: 1 });
    replies.receive({ id: posted[0]!.id, reply: { ok: true, data: { sum: 'two', extra: true } } });
    expect(await call).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY', message: expect.stringContaining('demo/add') } });
  });

  it('rejects past the deadline and frees the slot: a late answer is ignored', async () => {
    vi.useFakeTimers();
    try {
      const { posted, replies, client } = harness(50);
      const call = client.call('demo/add', { a: 1, b: 1 });
      const settled = expect(call).rejects.toThrow('demo/add expired after 50 ms');
      await vi.advanceTimersByTimeAsync(60);
      await settled;
      expect(replies.receive({ id: posted[0]!.id, reply: { ok: true, data: { sum: 2 } } })).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the receiver refuses a message that does not fit (with its id) and answers nothing without an id', async () => {
    const answers: unknown[] = [];
    await answerCorrelated(Map, handlers, { id: 4, type: 'demo/add', a: 'x', b: 1 }, undefined, (a) => answers.push(a));
    await answerCorrelated(Map, handlers, { id: 5, type: 'demo/nope' }, undefined, (a) => answers.push(a));
    await answerCorrelated(Map, handlers, { type: 'demo/add', a: 1, b: 1 }, undefined, (a) => answers.push(a));
    await answerCorrelated(Map, handlers, { id: 'six', type: 'demo/add', a: 1, b: 1 }, undefined, (a) => answers.push(a));
    expect(answers).toEqual([
      { id: 4, reply: { ok: false, error: expect.objectContaining({ code: 'INVALID_MESSAGE' }) } },
      { id: 5, reply: { ok: false, error: expect.objectContaining({ code: 'INVALID_MESSAGE' }) } },
    ]);
  });
});
