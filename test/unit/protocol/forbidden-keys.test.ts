import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { findForbiddenKey } from '../../../src/protocol/forbidden-keys.ts';
import { PanelMessage } from './wire-schema.ts';
import { parseOrError } from '../../../src/protocol/validate.ts';

// JSON.parse makes "__proto__" an own key, as a message from an agent would carry it.
const request = (input: string) => JSON.parse(`{"action":"book_appointment","resource":{"type":"clinic","id":"main"},"idempotency_key":"k1","input":${input}}`);

describe('prototype keys in inputs', () => {
  it.each([
    ['{"__proto__":{"admin":true}}', 'input.__proto__'],
    ['{"patient":{"constructor":{"prototype":1}}}', 'input.patient.constructor'],
    ['{"list":[{"a":1},{"prototype":2}]}', 'input.list[1].prototype'],
  ])('refuses %s with INVALID_INPUT naming %s', (input, path) => {
    const parsed = parseOrError(ActionRequest, request(input), { what: 'action request' });
    expect(parsed).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', issues: [{ path, message: expect.stringContaining('is not accepted as a key') }] } });
  });

  it('keeps ordinary keys that merely contain the words', () => {
    expect(parseOrError(ActionRequest, request('{"proto":1,"constructor_name":"x","my_prototype":[]}'))).toMatchObject({ ok: true });
  });

  it('applies to a tool run from the side panel too', () => {
    const message = JSON.parse('{"type":"panel/run-tool","tabId":1,"frameId":0,"name":"t","input":{"__proto__":{"x":1}}}');
    expect(PanelMessage.safeParse(message).success).toBe(false);
  });

  it('finds a key nested deeper than the call stack allows', () => {
    let deep: unknown = JSON.parse('{"__proto__":1}');
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findForbiddenKey(deep)).toHaveLength(50_001);
  });
});
