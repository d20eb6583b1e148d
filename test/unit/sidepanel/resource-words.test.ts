import { describe, expect, it } from 'vitest';
import { resourceWords } from '../../../src/sidepanel/lib/resource-words.ts';

describe('how an approval card and the current tab name the resource', () => {
  it('an identified resource by its type and id, with nothing more to say', () => {
    expect(resourceWords({ type: 'order', id: 'ORD-1024' }, { certainty: 'identified', basis: 'URL path "/orders/ORD-1024"' })).toEqual({ name: 'order ORD-1024' });
  });

  it('a guessed one says it is Steward’s guess and where it read it', () => {
    const w = resourceWords({ type: 'order', id: 'ORD-2003' }, { certainty: 'guessed', basis: 'page title "Checkout · ORD-2003"' });
    expect(w.name).toBe('order ORD-2003');
    expect(w.doubt).toBe('This is Steward’s guess, read from the page title "Checkout · ORD-2003": the page does not name it clearly.');
  });

  it('an unknown one is "this page", never "page localhost:4100/checkout", and says which kind it could not tell', () => {
    expect(resourceWords({ type: 'page', id: 'localhost:4100/checkout' }, { certainty: 'unknown', likely_type: 'order' })).toEqual({
      name: 'this page',
      doubt: 'Steward could not tell which order this is.',
    });
    expect(resourceWords({ type: 'page', id: 'localhost:4100/shop/trail-runner-3' }, { certainty: 'unknown' }).doubt).toBe('Steward could not tell which resource this page is about.');
  });

  it('a card from before certainty was reported: a page resource is still unknown, anything else as named', () => {
    expect(resourceWords({ type: 'page', id: 'localhost:4100/checkout' }, undefined).name).toBe('this page');
    expect(resourceWords({ type: 'order', id: 'ORD-1' }, undefined)).toEqual({ name: 'order ORD-1' });
  });
});
