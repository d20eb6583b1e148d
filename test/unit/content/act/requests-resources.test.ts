import { describe, expect, it } from 'vitest';
import { RequestLedger } from '../../../../src/content/act/requests.ts';

describe('resources the page loads by itself', () => {
  it('an image from another origin after the act began is reported as a write, with its address', () => {
    let now = 100;
    const ledger = new RequestLedger('http://lab.test', () => now);
    ledger.noteResource('http://other.test/pixel.png?d=ACC-449277', 'img', 150);
    ledger.noteResource('http://lab.test/logo.png', 'img', 160); // same origin: a read
    ledger.noteResource('http://other.test/early.png', 'img', 50); // before the act
    ledger.noteResource('http://other.test/api', 'fetch', 170); // the main world reports fetches
    now = 200;
    expect(ledger.writesSince(100)).toEqual([{ method: 'GET', url: 'http://other.test/pixel.png?d=ACC-449277', kind: 'image', at_ms: 50 }]);
  });
});
