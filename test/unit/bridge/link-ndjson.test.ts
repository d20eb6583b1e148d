import { describe, expect, it } from 'vitest';
import { encodeLine, LineReader, type LineEvent } from '../../../bridge/src/link/ndjson.ts';

const messages = (events: LineEvent[]) => events.filter((e) => e.kind === 'message').map((e) => e.value);

describe('the socket NDJSON', () => {
  it('reads lines however the bytes are chunked', () => {
    const reader = new LineReader(1024);
    const text = Buffer.from(encodeLine({ id: 'a', s: 'é' }) + encodeLine({ id: 'b' }) + encodeLine({ id: 'c' }));
    const events = [...reader.push(text.subarray(0, 7)), ...reader.push(text.subarray(7, 30)), ...reader.push(text.subarray(30))];
    expect(messages(events)).toEqual([{ id: 'a', s: 'é' }, { id: 'b' }, { id: 'c' }]);
  });

  it('skips an over-long line to its newline, even when it arrives in pieces, and reads the next', () => {
    const reader = new LineReader(50);
    const long = encodeLine({ text: 'y'.repeat(200) });
    const events = [...reader.push(Buffer.from(long.slice(0, 80))), ...reader.push(Buffer.from(long.slice(80, 150))), ...reader.push(Buffer.from(long.slice(150) + encodeLine({ ok: 1 })))];
    expect(events.filter((e) => e.kind === 'dropped')).toHaveLength(1);
    expect(messages(events)).toEqual([{ ok: 1 }]);
  });

  it('reports a line that is not JSON and ignores blank lines', () => {
    const reader = new LineReader(1024);
    const events = reader.push(Buffer.from('{nope\n\n[1]\n'));
    expect(events).toEqual([
      { kind: 'dropped', reason: expect.stringMatching(/not JSON/) },
      { kind: 'message', value: [1] },
    ]);
  });
});
