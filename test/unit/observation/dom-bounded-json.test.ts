import { describe, expect, it } from 'vitest';
import { boundJson, parseJsonLd } from '../../../src/observation/dom/bounded-json.ts';

const bounds = { maxDepth: 3, maxKeys: 4, maxItems: 2, maxString: 10 };

describe('boundJson', () => {
  it('copies plain data and says when it cut depth, keys, items or strings', () => {
    expect(boundJson({ a: 1, b: 'x', c: [true, null] }, bounds)).toEqual({ value: { a: 1, b: 'x', c: [true, null] }, truncated: false });
    expect(boundJson({ s: 'a'.repeat(20) }, bounds)).toEqual({ value: { s: `${'a'.repeat(9)}…` }, truncated: true });
    expect(boundJson([1, 2, 3], bounds)).toEqual({ value: [1, 2], truncated: true });
    expect(boundJson({ a: 1, b: 2, c: 3, d: 4, e: 5 }, bounds).truncated).toBe(true);
    expect(boundJson({ a: { b: { c: { d: 1 } } } }, bounds)).toEqual({ value: { a: { b: { c: {} } } }, truncated: true });
    expect(boundJson({ n: Number.POSITIVE_INFINITY }, bounds).value).toEqual({ n: null });
  });

  it("keeps keys named after Object's own as plain keys and drops __proto__ (a page cannot give the copy a prototype)", () => {
    const parsed = JSON.parse('{"__proto__": {"@type": "Order"}, "constructor": "c", "toString": "t"}') as unknown;
    const { value } = boundJson(parsed, bounds);
    expect(value).toEqual({ constructor: 'c', toString: 't' });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as Record<string, unknown>)['@type']).toBeUndefined();
  });
});

describe('parseJsonLd', () => {
  const big = { maxDepth: 6, maxKeys: 64, maxItems: 50, maxString: 1000 };

  it('reads schema.org objects, spreading arrays and @graph', () => {
    const order = { '@context': 'https://schema.org', '@type': 'Order', orderNumber: 'ORD-1', orderStatus: 'https://schema.org/OrderPaymentDue' };
    expect(parseJsonLd(JSON.stringify(order), 10_000, big)).toEqual({ items: [{ kind: 'json-ld', type: 'Order', data: order }], blindSpots: [] });
    const graph = {
      '@graph': [
        { '@type': 'https://schema.org/Person', name: 'A' },
        { '@type': ['Product', 'Thing'], name: 'B' },
      ],
    };
    expect(parseJsonLd(JSON.stringify(graph), 10_000, big).items.map((i) => i.type)).toEqual(['Person', 'Product']);
    expect(parseJsonLd(JSON.stringify([{ name: 'untyped' }]), 10_000, big).items).toEqual([{ kind: 'json-ld', data: { name: 'untyped' } }]);
  });

  it('turns broken, oversized and overlong blocks into blind spots instead of errors', () => {
    expect(parseJsonLd('{"@type": "Order", broken', 10_000, big)).toEqual({ items: [], blindSpots: ['json_ld_invalid'] });
    expect(parseJsonLd(JSON.stringify({ x: 'y'.repeat(200) }), 100, big)).toEqual({ items: [], blindSpots: ['json_ld_too_large'] });
    expect(parseJsonLd(JSON.stringify({ '@type': 'Dataset', text: 'z'.repeat(2000) }), 10_000, big).blindSpots).toEqual(['json_ld_truncated']);
  });

  it('gives the short schema.org type', () => {
    /** The type the one item of a JSON-LD block holding `node` is given. */
    const schemaType = (node: Record<string, unknown>) => parseJsonLd(JSON.stringify(node), 10_000, big).items[0]!.type;
    expect(schemaType({ '@type': 'http://schema.org/Order' })).toBe('Order');
    expect(schemaType({ '@type': 42 })).toBeUndefined();
  });
});
