import { describe, expect, it } from 'vitest';
import { broadPatterns, lostSites, siteStanding } from '../../../../src/background/sites/site-grants.ts';

const SHOP = 'http://127.0.0.1:4100';
const CLINIC = 'http://127.0.0.1:4101';
const BANK = 'https://bank.example';

describe('site standing: the list against Chrome', () => {
  it('reads a listed site only while Chrome grants it; a listed site without a grant waits', () => {
    expect(siteStanding([SHOP, CLINIC, BANK], new Set([CLINIC, 'https://unlisted.example']))).toEqual({ allowed: [CLINIC], waiting: [BANK, SHOP].sort() });
    expect(siteStanding([], new Set([SHOP]))).toEqual({ allowed: [], waiting: [] });
  });

  it('names the sites that stopped being read', () => {
    expect(lostSites([SHOP, CLINIC], [CLINIC])).toEqual([SHOP]);
    expect(lostSites([SHOP], [SHOP, CLINIC])).toEqual([]);
  });

  it('tells a grant of every site from a grant of one', () => {
    expect(broadPatterns(['http://*/*', 'https://*/*', `${SHOP}/*`, '*://*/*', '<all_urls>', 'https://*.example.com/*'])).toEqual(['http://*/*', 'https://*/*', '*://*/*', '<all_urls>']);
    expect(broadPatterns([`${SHOP}/*`, 'https://bank.example/*'])).toEqual([]);
  });
});
