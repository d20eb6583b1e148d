import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { formNavigationSeen } from '../../../src/pipeline/form-navigation.ts';
import { FakeShop } from './fakes.ts';

const base = new FakeShop().observation('ORD-1024', 'legacy_inference')!;
const page = (url: string, method: 'get' | 'post' = 'get'): ObservedState => ({ ...base, url, forms: [{ ref: 'f1', method, action: 'https://shop.example/search', toolname: 'search', fields: [] }] });
const request = (input: Record<string, unknown>) => ActionRequest.parse({ action: 'search', resource: { type: 'page', id: 'home' }, input, idempotency_key: 'k' });

describe('a declarative GET form’s result page', () => {
  const before = page('https://shop.example/');
  it('is the form’s action carrying every value the agent gave', () => {
    expect(formNavigationSeen(request({ q: 'boots', tags: ['a', 'b'], inStock: true }), before, page('https://shop.example/search?q=boots&tags=a&tags=b&inStock=on'))).toBe(true);
    expect(formNavigationSeen(request({ q: 'boots' }), before, page('https://shop.example/search?q=sandals'))).toBe(false);
    expect(formNavigationSeen(request({ q: 'boots' }), before, page('https://shop.example/other?q=boots'))).toBe(false);
    expect(formNavigationSeen(request({ q: 'boots' }), before, null)).toBe(false);
  });

  it('says nothing of a POST form or a tool that is no form', () => {
    expect(formNavigationSeen(request({ q: 'boots' }), page('https://shop.example/', 'post'), page('https://shop.example/search?q=boots'))).toBeUndefined();
    expect(formNavigationSeen({ ...request({}), action: 'other_tool' }, before, page('https://shop.example/search'))).toBeUndefined();
  });
});
