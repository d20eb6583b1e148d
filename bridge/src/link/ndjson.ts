/**
 * Newline-delimited JSON, as the host and the MCP server processes speak it on the socket. A line
 * over `maxBytes` is skipped up to its newline without being buffered; one that is not JSON is
 * reported; both leave the stream in step.
 */

export type LineEvent = { kind: 'message'; value: unknown } | { kind: 'dropped'; reason: string };

const NEWLINE = 0x0a;

export class LineReader {
  private parts: Buffer[] = [];
  private length = 0;
  private skipping = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let data = chunk;
    for (let newline = data.indexOf(NEWLINE); newline !== -1; newline = data.indexOf(NEWLINE)) {
      const tail = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.skipping || this.length + tail.length > this.maxBytes) {
        if (!this.skipping) events.push(this.overCap());
        this.reset();
        continue;
      }
      const line = Buffer.concat([...this.parts, tail]).toString('utf8');
      this.reset();
      if (line.trim() === '') continue;
      try {
        events.push({ kind: 'message', value: JSON.parse(line) });
      } catch {
        events.push({ kind: 'dropped', reason: `a line of ${Buffer.byteLength(line)} bytes is not JSON` });
      }
    }
    if (!this.skipping && data.length) {
      if (this.length + data.length > this.maxBytes) {
        events.push(this.overCap());
        this.parts = [];
        this.length = 0;
        this.skipping = true;
      } else {
        this.parts.push(data);
        this.length += data.length;
      }
    }
    return events;
  }

  private overCap(): LineEvent {
    return { kind: 'dropped', reason: `a line is over the ${this.maxBytes}-byte cap` };
  }

  private reset(): void {
    this.parts = [];
    this.length = 0;
    this.skipping = false;
  }
}

export const encodeLine = (value: unknown): string => `${JSON.stringify(value)}\n`;
