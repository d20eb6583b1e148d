import { describe, expect, it } from 'vitest';
import { partialThought } from '../../../src/agent/partial-thought.ts';

describe('the thought of a step reply still streaming in', () => {
  const whole = JSON.stringify({ kind: 'act', thought: 'Cancel “ORD-1024”: the \\ page says\n"yes" \u00e9', action: { name: 'orders.cancel', input: {} }, expect: 'cancelled' });

  it('grows with the reply, cut anywhere, and never shows half an escape', () => {
    const seen: string[] = [];
    for (let n = 0; n <= whole.length; n++) {
      const t = partialThought(whole.slice(0, n));
      if (t !== undefined) seen.push(t);
    }
    const final = 'Cancel “ORD-1024”: the \\ page says\n"yes" é';
    expect(seen.at(-1)).toBe(final);
    // Every reading is a beginning of the whole thought: nothing shown is taken back.
    for (const t of seen) expect(final.startsWith(t), JSON.stringify(t)).toBe(true);
    expect(seen[0]).toBe('');
  });

  it('reads \\u escapes, and knows nothing before the thought begins or in a reply that is not JSON', () => {
    expect(partialThought('{"kind":"done","thought":"caf\\u00e9 ok","claim":"x"}')).toBe('café ok');
    expect(partialThought('{"kind":"done","thought":"caf\\u00')).toBe('caf');
    expect(partialThought('{"kind":"act","thou')).toBeUndefined();
    expect(partialThought('I think I will cancel it.')).toBeUndefined();
  });
});
