import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { StorageTaintLedger } from '../../../../src/background/pipeline/agent-taint.ts';

describe('StorageTaintLedger (chrome.storage.local)', () => {
  beforeEach(() => fakeBrowser.reset());

  it('survives a restart: a new instance still knows the agent read a page', async () => {
    await new StorageTaintLedger().mark('agent:copilot', { at: 5, source: 'the page http://localhost:4100/orders/ORD-1024', session_id: 'ses_1' });
    const after = new StorageTaintLedger();
    expect(await after.taintOf('agent:copilot')).toEqual({ at: 5, source: 'the page http://localhost:4100/orders/ORD-1024', session_id: 'ses_1' });
    expect(await after.taintOf('agent:other')).toBeUndefined();
  });

  it('keeps the source’s phrase, for the panel to say it in the person’s language; a malformed one is dropped, the mark kept', async () => {
    const said = { code: 'taint_page', params: { url: 'http://localhost:4100/orders/ORD-1024' } };
    await new StorageTaintLedger().mark('agent:copilot', { at: 5, source: 'the page http://localhost:4100/orders/ORD-1024', said });
    expect(await new StorageTaintLedger().taintOf('agent:copilot')).toEqual({ at: 5, source: 'the page http://localhost:4100/orders/ORD-1024', said });
    await new StorageTaintLedger().mark('agent:b', { at: 6, source: 'two', said: { code: 'Not A Code' } });
    expect(await new StorageTaintLedger().taintOf('agent:b')).toEqual({ at: 6, source: 'two' });
  });

  it('stores the mark in the local area (it outlives the browser session, as the credential does), with its source bounded', async () => {
    await new StorageTaintLedger().mark('agent:copilot', { at: 7, source: 'x'.repeat(1000), session_id: 's'.repeat(300) });
    const stored = (await fakeBrowser.storage.local.get('pipeline.taint'))['pipeline.taint'] as Record<string, { source: string; session_id: string }>;
    expect(Object.keys(stored)).toEqual(['agent:copilot']);
    expect(stored['agent:copilot']).toEqual({ at: 7, source: 'x'.repeat(400), session_id: 's'.repeat(128) });
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('clear drops one agent’s mark and returns it; the others stay; an unreadable record cannot be cleared agent by agent', async () => {
    const l = new StorageTaintLedger();
    await l.mark('agent:a', { at: 1, source: 'one' });
    await l.mark('agent:b', { at: 2, source: 'two' });
    expect(await l.clear('agent:a')).toEqual({ at: 1, source: 'one' });
    expect(await new StorageTaintLedger().taintOf('agent:a')).toBeUndefined();
    expect(await new StorageTaintLedger().taintOf('agent:b')).toEqual({ at: 2, source: 'two' });
    expect(await l.clear('agent:a')).toBeUndefined();
    await fakeBrowser.storage.local.set({ 'pipeline.taint': { 'agent:a': { at: 'yesterday' } } });
    await expect(l.clear('agent:b')).rejects.toThrow(/cannot be read/);
    expect(await l.taintOf('agent:b')).toMatchObject({ source: expect.stringContaining('unreadable'), said: { code: 'taint_unreadable' } });
  });

  it('keeps the first mark; concurrent marks of two agents both land', async () => {
    const l = new StorageTaintLedger();
    await Promise.all([l.mark('agent:a', { at: 1, source: 'one' }), l.mark('agent:b', { at: 2, source: 'two' }), l.mark('agent:a', { at: 3, source: 'three' })]);
    expect(await l.taintOf('agent:a')).toEqual({ at: 1, source: 'one' });
    expect(await l.taintOf('agent:b')).toEqual({ at: 2, source: 'two' });
  });

  it('an unreadable record counts as tainted (fail closed); a prototype key taints nobody', async () => {
    await fakeBrowser.storage.local.set({ 'pipeline.taint': { 'agent:a': { at: 'yesterday' } } });
    expect(await new StorageTaintLedger().taintOf('agent:b')).toMatchObject({ source: expect.stringContaining('unreadable') });
    fakeBrowser.reset();
    expect(await new StorageTaintLedger().taintOf('__proto__')).toBeUndefined();
  });

  it('marking another agent on an unreadable record does not clear it: every agent stays tainted', async () => {
    await fakeBrowser.storage.local.set({ 'pipeline.taint': { 'agent:a': { at: 'yesterday' } } });
    const l = new StorageTaintLedger();
    await l.mark('agent:b', { at: 2, source: 'two' });
    expect(await new StorageTaintLedger().taintOf('agent:c')).toMatchObject({ source: expect.stringContaining('unreadable') });
  });
});
