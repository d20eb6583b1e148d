import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../../../src/agent/models/sse.ts';

/** Feeds `text` in pieces of `size` characters: a server's chunks fall anywhere. */
function parse(text: string, size = text.length): SseEvent[] {
  const parser = new SseParser();
  const out: SseEvent[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...parser.push(text.slice(i, i + size)));
  return [...out, ...parser.end()];
}

describe('server-sent events', () => {
  const openAi = 'data: {"choices":[{"delta":{"content":"He"}}]}\n\ndata: {"choices":[{"delta":{"content":"llo"}}]}\n\ndata: [DONE]\n\n';

  it('reads OpenAI-style data events, whatever the chunking, one character at a time included', () => {
    const expected = [
      { event: 'message', data: '{"choices":[{"delta":{"content":"He"}}]}' },
      { event: 'message', data: '{"choices":[{"delta":{"content":"llo"}}]}' },
      { event: 'message', data: '[DONE]' },
    ];
    for (const size of [1, 2, 3, 7, 64, openAi.length]) expect(parse(openAi, size), `chunks of ${size}`).toEqual(expected);
  });

  it('reads named events (Anthropic) with CRLF, CR or LF line ends', () => {
    const lf = 'event: content_block_delta\ndata: {"delta":{"text":"a"}}\n\nevent: message_stop\ndata: {}\n\n';
    const expected = [
      { event: 'content_block_delta', data: '{"delta":{"text":"a"}}' },
      { event: 'message_stop', data: '{}' },
    ];
    expect(parse(lf)).toEqual(expected);
    expect(parse(lf.replaceAll('\n', '\r\n'), 1)).toEqual(expected);
    expect(parse(lf.replaceAll('\n', '\r'), 5)).toEqual(expected);
  });

  it('joins several data lines with a newline, skips comments, ids and retries, and drops an event the stream cut off', () => {
    const text = '\ufeff: keep-alive\nid: 7\nretry: 100\ndata: one\ndata:two\n\nevent: ping\n\ndata: cut off';
    expect(parse(text, 4)).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });
});
