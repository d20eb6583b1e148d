import { describe, expect, it } from 'vitest';
import { plainPathPrefix, plainPathTarget } from '../../../src/observation/dom/plain-href.ts';

/** What the URL parser (a.href) gives: the shortcut must give exactly that, or nothing. */
const parsed = (raw: string, base: string) => new URL(raw, base).href;

const BASES = ['http://localhost:4102/grid?n=16000', 'https://shop.example/orders/ORD-1024#top', 'https://xn--bcher-kva.example:8443/a/b/', 'http://[::1]:80/x', 'HTTPS://Shop.Example:443/'];

describe('plain absolute paths', () => {
  it('resolve as the URL parser resolves them', () => {
    const raws = ['/', '/grid/users/USR-00001', '/a//b', '/a/..b/c.', '/.well-known/x', '/~user/file.tar.gz', '/A-Z_0.9~', '/x/'];
    for (const base of BASES) {
      const prefix = plainPathPrefix(base);
      expect(prefix).toBeDefined();
      for (const raw of raws) {
        const target = plainPathTarget(raw, prefix);
        if (target !== undefined) expect(target).toBe(parsed(raw, base));
      }
      expect(plainPathTarget('/grid/users/USR-00001', prefix)).toBe(parsed('/grid/users/USR-00001', base));
    }
  });

  it('leave everything else to the browser', () => {
    const prefix = plainPathPrefix('http://localhost/');
    for (const raw of ['', 'grid', '//evil.example/x', '/a/./b', '/a/../b', '/a/.', '/a/..', '/.', '/..', '/a b', '/a?b=1', '/a#b', '/%2e%2e/', '/\\x', ' /a', '/a\t', '/é', 'http://x/']) {
      expect(plainPathTarget(raw, prefix)).toBeUndefined();
    }
  });

  it('only for http(s) bases without credentials', () => {
    for (const base of ['file:///tmp/x.html', 'about:blank', 'data:text/html,x', 'chrome-extension://abc/page.html', 'http://user:pw@localhost/', 'https://user@localhost/', 'not a url']) {
      expect(plainPathPrefix(base)).toBeUndefined();
    }
  });

  it('agree with the URL parser on random paths', () => {
    const alphabet = 'aZ09-._~/%?#:@!$&\'()*+,;= \\\t"<>`{}|^[]é';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const base = 'https://shop.example:8443/orders/';
    const prefix = plainPathPrefix(base);
    for (let i = 0; i < 5000; i++) {
      let raw = '/';
      const n = Math.floor(next() * 12);
      for (let j = 0; j < n; j++) raw += alphabet[Math.floor(next() * alphabet.length)];
      const target = plainPathTarget(raw, prefix);
      if (target !== undefined) expect(target).toBe(parsed(raw, base));
    }
  });
});
