/**
 * Server-sent events (the `text/event-stream` format of the WHATWG HTML standard, §9.2) as model
 * servers stream replies: text arrives in arbitrary chunks, possibly cut inside a line or a
 * multi-byte character; an event is its `event:` name and its `data:` lines, ended by a blank
 * line. Comments (`:`), `id:` and `retry:` carry nothing a reply needs and are skipped.
 */

export interface SseEvent {
  /** `message` when the server named none. */
  event: string;
  data: string;
}

/** Feeds chunks of the stream's text in; each call returns the events those chunks completed. */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private started = false;

  push(chunk: string): SseEvent[] {
    let text = this.buffer + chunk;
    // The stream may open with a byte-order mark.
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (c === '\r' && i === text.length - 1) break;
      this.line(text.slice(start, i), out);
      if (c === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = text.slice(start);
    return out;
  }

  /** The stream ended: a last event without its blank line is incomplete and dropped, as the standard says. */
  end(): SseEvent[] {
    // A CR held back as a possible half of CRLF was a line end after all.
    const out = this.buffer.endsWith('\r') ? this.push('\n') : [];
    this.buffer = '';
    this.event = '';
    this.data = [];
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}
