import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { channelClient, dispatch, type Handlers } from '../../../src/protocol/channel.ts';
import { wireSchema } from './wire-schema.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';

const Map = {
  'demo/add': { request: z.object({ a: z.number(), b: z.number() }), reply: z.object({ sum: z.number() }) },
  'demo/ping': { request: z.object({}), reply: z.literal('pong') },
};

const handlers: Handlers<typeof Map, string> = {
  'demo/add': ({ a, b }) => ({ ok: true, data: { sum: a + b } }),
  'demo/ping': async () => ({ ok: true, data: 'pong' }),
};

describe('a channel’s request map', () => {
  it('derives an exhaustive handler table: a missing handler is a type error', () => {
    // @ts-expect-error 'demo/ping' has no handler
    const partial: Handlers<typeof Map, string> = { 'demo/add': handlers['demo/add'] };
    expect(Object.keys(partial)).toEqual(['demo/add']);
  });

  it('derives the wire schema: { type, ...payload } for every type and nothing else', () => {
    const wire = wireSchema(Map);
    expect(wire.safeParse({ type: 'demo/add', a: 1, b: 2 }).success).toBe(true);
    expect(wire.safeParse({ type: 'demo/add', a: 1 }).success).toBe(false);
    expect(wire.safeParse({ type: 'demo/other' }).success).toBe(false);
  });

  it('dispatches by type after the schema check, answering at once when the handler does', async () => {
    expect(dispatch(Map, handlers, { type: 'demo/add', a: 1, b: 2 }, 'ctx')).toEqual({ ok: true, data: { sum: 3 } });
    expect(await dispatch(Map, handlers, { type: 'demo/ping' }, 'ctx')).toEqual({ ok: true, data: 'pong' });
  });

  it('refuses an unknown type or a payload that does not fit with INVALID_MESSAGE, without calling a handler', async () => {
    const add = vi.fn(handlers['demo/add']);
    const spied = { ...handlers, 'demo/add': add };
    for (const m of [{ type: 'demo/add', a: '1', b: 2 }, { type: 'demo/nope' }, { type: 'toString' }, null, 'demo/add']) {
      expect(await dispatch(Map, spied, m, 'ctx')).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE', retryable: false } });
    }
    expect(add).not.toHaveBeenCalled();
  });

  it('turns a handler that throws into INTERNAL (retryable)', async () => {
    const broken = { ...handlers, 'demo/ping': async () => Promise.reject(new Error('disk gone')) };
    expect(await dispatch(Map, broken, { type: 'demo/ping' }, 'ctx')).toMatchObject({ ok: false, error: { code: 'INTERNAL', retryable: true } });
  });
});

describe('channelClient', () => {
  it('sends { type, ...payload } and parses the answer with that type’s reply schema', async () => {
    const send = vi.fn(async () => ({ ok: true, data: { sum: 3 } }));
    const client = channelClient(Map, send);
    expect(await client.call('demo/add', { a: 1, b: 2 })).toEqual({ ok: true, data: { sum: 3 } });
    expect(send).toHaveBeenCalledWith({ type: 'demo/add', a: 1, b: 2 });
    // The same answer to another type does not fit its schema.
    expect(await client.call('demo/ping', {})).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
  });

  it('passes a refusal through, and rejects what is not an envelope', async () => {
    const refusal = { ok: false, error: { code: 'NOT_READY', message: 'later', retryable: true } };
    expect(await channelClient(Map, async () => refusal).call('demo/ping', {})).toEqual(refusal);
    expect(await channelClient(Map, async () => 'pong').call('demo/ping', {})).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
  });

  it('pairs every panel request with its own reply schema (a token list is not a minted token)', async () => {
    const client = channelClient(PanelRequests, async () => ({ ok: true, data: { tokens: [] } }));
    expect(await client.call('panel/tokens', {})).toEqual({ ok: true, data: { tokens: [] } });
    expect(await client.call('panel/token-mint', { agent_id: 'agent:x', scope: ['*:*'], resource_scope: '*', origins: ['http://localhost:4100'], ttl_ms: 1000 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REPLY' },
    });
  });
});
