import { describe, expect, it } from 'vitest';
import { nativeBelief, planContentScripts, samePlan } from '../../../../src/background/sites/content-script-plan.ts';
import { readSiteAccess } from '../../../../src/protocol/site-access.ts';

const FILES = { mainWithPolyfill: 'assets/main-world.iife.js', mainNetworkOnly: 'assets/main-network.iife.js', isolated: 'assets/isolated.iife.js' };

describe('content scripts follow the allowed sites', () => {
  it('registers nothing while no site is allowed', () => {
    expect(planContentScripts([], true, FILES)).toEqual([]);
  });

  it('matches exactly the allowed origins, ports included, in both worlds at document_start', () => {
    const plan = planContentScripts(['http://127.0.0.1:4100', 'https://shop.example'], true, FILES);
    expect(plan.map((s) => s.world)).toEqual(['MAIN', 'ISOLATED']);
    for (const s of plan) {
      expect(s.matches).toEqual(['http://127.0.0.1:4100/*', 'https://shop.example/*']);
      expect(s).toMatchObject({ runAt: 'document_start', allFrames: true, persistAcrossSessions: true });
    }
    expect(plan[1]!.js).toEqual([FILES.isolated]);
  });

  it('puts the polyfill on pages only while the setting is on; network observation stays either way', () => {
    expect(planContentScripts(['https://a.example'], true, FILES)[0]!.js).toEqual([FILES.mainWithPolyfill]);
    expect(planContentScripts(['https://a.example'], false, FILES)[0]!.js).toEqual([FILES.mainNetworkOnly]);
  });

  it('recognises a registration that already is the plan, and one that is not', () => {
    const plan = planContentScripts(['https://b.example', 'https://a.example'], true, FILES);
    const asChrome = plan.map(({ persistAcrossSessions: _p, ...s }) => ({ ...s, matches: [...s.matches].reverse() }));
    expect(samePlan(asChrome, plan)).toBe(true);
    expect(samePlan(asChrome, planContentScripts(['https://a.example'], true, FILES))).toBe(false);
    expect(samePlan(asChrome, planContentScripts(['https://b.example', 'https://a.example'], false, FILES))).toBe(false);
    expect(samePlan([], [])).toBe(true);
  });
});

describe('the stored list of allowed sites', () => {
  it('keeps valid origins once and drops what is not an origin, without losing the rest', () => {
    expect(readSiteAccess({ allowed: ['https://a.example', 'https://a.example/path', 'javascript:alert(1)', 42, 'http://127.0.0.1:4100', 'https://a.example'] })).toEqual({
      allowed: ['https://a.example', 'http://127.0.0.1:4100'],
    });
    expect(readSiteAccess(undefined)).toEqual({ allowed: [] });
    expect(readSiteAccess({ allowed: 'https://a.example' })).toEqual({ allowed: [] });
  });
});

describe('whether the browser has native WebMCP', () => {
  it('a top frame seeing native WebMCP says yes; one seeing no WebMCP at all says no; frames and the polyfill change nothing', () => {
    expect(nativeBelief(false, { api: 'native', topFrame: true })).toBe(true);
    expect(nativeBelief(false, { api: 'native', topFrame: false })).toBe(true);
    // The flag was turned off: the network-only script left the page without any WebMCP.
    expect(nativeBelief(true, { api: 'none', topFrame: true })).toBe(false);
    // A sandboxed or script-less frame proves nothing about the browser.
    expect(nativeBelief(true, { api: 'none', topFrame: false })).toBe(true);
    expect(nativeBelief(true, { api: 'polyfill', topFrame: true })).toBe(true);
    expect(nativeBelief(false, { api: 'polyfill', topFrame: true })).toBe(false);
  });
});
