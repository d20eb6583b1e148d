/**
 * Chrome's native-messaging framing: each message is a 4-byte length (native order, little-endian
 * on every platform Chrome ships on) followed by that many bytes of UTF-8 JSON.
 */

const HEADER_BYTES = 4;

export type FrameEvent = { kind: 'message'; value: unknown } | { kind: 'dropped'; reason: string };

/**
 * Turns a byte stream into messages, whatever the chunking. A frame over `maxBytes` is skipped
 * without being buffered, and one that is not JSON is reported: both leave the stream in step,
 * since the length says where the next frame starts.
 */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private skipping = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    let data = chunk;
    if (this.skipping > 0) {
      const skipped = Math.min(this.skipping, data.length);
      this.skipping -= skipped;
      data = data.subarray(skipped);
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    while (this.buffer.length >= HEADER_BYTES) {
      const length = this.buffer.readUInt32LE(0);
      if (length > this.maxBytes) {
        events.push({ kind: 'dropped', reason: `a frame of ${length} bytes is over the ${this.maxBytes}-byte cap` });
        const available = this.buffer.length - HEADER_BYTES;
        const skipped = Math.min(length, available);
        this.skipping = length - skipped;
        this.buffer = this.buffer.subarray(HEADER_BYTES + skipped);
        continue;
      }
      if (this.buffer.length < HEADER_BYTES + length) break;
      const body = this.buffer.subarray(HEADER_BYTES, HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(HEADER_BYTES + length);
      try {
        events.push({ kind: 'message', value: JSON.parse(body.toString('utf8')) });
      } catch {
        events.push({ kind: 'dropped', reason: `a frame of ${length} bytes is not JSON` });
      }
    }
    if (this.buffer.length === 0) this.buffer = Buffer.alloc(0);
    return events;
  }
}

/** One message as a frame, or null when it would be over `maxBytes` (Chrome drops the host for that). */
export function encodeFrame(value: unknown, maxBytes: number): Buffer | null {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length > maxBytes) return null;
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}
