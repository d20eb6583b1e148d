import { describe, expect, it } from 'vitest';
import { allowOutcomeWords, siteFromAddress } from '../../../src/sidepanel/lib/site-words.ts';

describe('a site typed in Settings', () => {
  it.each([
    ['shop.example', 'https://shop.example'],
    ['  https://shop.example/orders/ORD-1024?x=1  ', 'https://shop.example'],
    ['http://localhost:4100/orders', 'http://localhost:4100'],
    ['http://127.0.0.1:4100', 'http://127.0.0.1:4100'],
    ['127.0.0.1:4100', 'https://127.0.0.1:4100'],
    ['HTTPS://Shop.Example:443/', 'https://shop.example'],
  ])('%s is the site %s', (typed, origin) => {
    expect(siteFromAddress(typed)).toBe(origin);
  });

  it.each(['', 'chrome://settings', 'file:///etc/passwd', 'javascript:alert(1)', 'not a site', 'intranet', 'ftp://files.example', 'about:blank'])('%j is no web site', (typed) => {
    expect(siteFromAddress(typed)).toBeUndefined();
  });
});

describe('what the panel says after "Allow"', () => {
  it('a declined prompt: the site is not read, in those words', () => {
    expect(allowOutcomeWords('https://shop.example', { kind: 'declined' })).toBe(
      'Chrome did not give Steward access to https://shop.example (its prompt was declined or closed), so Steward does not read it.',
    );
  });

  it('granted: observing now, with what waits for the next load', () => {
    expect(allowOutcomeWords('https://shop.example', { kind: 'allowed', tabs: 2 })).toMatch(/^Steward now observes https:\/\/shop.example\. Network evidence/);
    expect(allowOutcomeWords('https://shop.example', { kind: 'allowed', tabs: 0 })).toBe('Steward now observes https://shop.example; its pages are read from their next load.');
  });
});
