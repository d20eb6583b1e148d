import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, type FrameEvent } from '../../../bridge/src/host/framing.ts';

const frame = (value: unknown) => encodeFrame(value, 1024 * 1024)!;
const messages = (events: FrameEvent[]) => events.filter((e) => e.kind === 'message').map((e) => e.value);

describe('native-messaging framing', () => {
  it('writes a 4-byte little-endian length before the UTF-8 JSON', () => {
    const bytes = frame({ kind: 'hello', text: 'é' });
    const body = JSON.stringify({ kind: 'hello', text: 'é' });
    expect(bytes.readUInt32LE(0)).toBe(Buffer.byteLength(body));
    expect(bytes.subarray(4).toString('utf8')).toBe(body);
  });

  it('reads a frame delivered one byte at a time', () => {
    const reader = new FrameReader(1024);
    const bytes = frame({ a: 1, b: 'two' });
    const events = [...bytes].flatMap((byte) => reader.push(Buffer.from([byte])));
    expect(messages(events)).toEqual([{ a: 1, b: 'two' }]);
  });

  it('reads several frames delivered in one chunk, and a frame split across chunks', () => {
    const reader = new FrameReader(1024);
    const all = Buffer.concat([frame({ n: 1 }), frame({ n: 2 }), frame({ n: 3 })]);
    const first = reader.push(all.subarray(0, all.length - 5));
    expect(messages(first)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(messages(reader.push(all.subarray(all.length - 5)))).toEqual([{ n: 3 }]);
  });

  it('skips a frame over the cap without buffering it, and stays in step for the next one', () => {
    const reader = new FrameReader(100);
    const big = encodeFrame({ text: 'x'.repeat(500) }, 10_000)!;
    const after = frame({ ok: true });
    const events = [...reader.push(big.subarray(0, 50)), ...reader.push(big.subarray(50, 300)), ...reader.push(Buffer.concat([big.subarray(300), after]))];
    expect(events.filter((e) => e.kind === 'dropped')).toEqual([{ kind: 'dropped', reason: expect.stringMatching(/over the 100-byte cap/) }]);
    expect(messages(events)).toEqual([{ ok: true }]);
  });

  it('reports a frame that is not JSON and reads the next one', () => {
    const reader = new FrameReader(1024);
    const garbage = Buffer.from('not json{');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(garbage.length);
    const events = reader.push(Buffer.concat([header, garbage, frame(['fine'])]));
    expect(events).toEqual([
      { kind: 'dropped', reason: expect.stringMatching(/not JSON/) },
      { kind: 'message', value: ['fine'] },
    ]);
  });

  it('refuses to encode a message over the cap', () => {
    expect(encodeFrame({ text: 'x'.repeat(200) }, 100)).toBeNull();
    expect(encodeFrame({ text: 'x' }, 100)).not.toBeNull();
  });
});
