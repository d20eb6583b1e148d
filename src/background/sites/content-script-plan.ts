import { originPattern } from '../../protocol/site-access.ts';

/**
 * Which content scripts Chrome should inject, from the allowed sites and the polyfill setting
 * (pure: src/background/sites/site-access.ts applies it with chrome.scripting). Both worlds run at
 * document_start in every frame of an allowed origin; the main world carries the WebMCP polyfill
 * only when the person keeps it on, and observes the page's JSON responses either way.
 */

export interface ContentScriptFiles {
  /** Main world: network observation and the WebMCP polyfill. */
  mainWithPolyfill: string;
  /** Main world: network observation only. */
  mainNetworkOnly: string;
  isolated: string;
}

/** The subset of chrome.scripting.RegisteredContentScript that Steward uses. */
export interface PlannedScript {
  id: string;
  js: string[];
  matches: string[];
  runAt: 'document_start';
  allFrames: true;
  world: 'MAIN' | 'ISOLATED';
  persistAcrossSessions: true;
}

const MAIN_SCRIPT_ID = 'steward-main';
const ISOLATED_SCRIPT_ID = 'steward-isolated';

export function planContentScripts(allowed: readonly string[], polyfill: boolean, files: ContentScriptFiles): PlannedScript[] {
  if (allowed.length === 0) return [];
  const matches = [...new Set(allowed)].sort().map(originPattern);
  const common = { matches, runAt: 'document_start', allFrames: true, persistAcrossSessions: true } as const;
  return [
    // Registered first so Chrome injects it first; the port handshake copes with either order.
    { id: MAIN_SCRIPT_ID, js: [polyfill ? files.mainWithPolyfill : files.mainNetworkOnly], world: 'MAIN', ...common },
    { id: ISOLATED_SCRIPT_ID, js: [files.isolated], world: 'ISOLATED', ...common },
  ];
}

/** Whether what Chrome has registered already is the plan (order of matches aside). */
export function samePlan(registered: ReadonlyArray<{ id: string; js?: string[]; matches?: string[]; world?: string; runAt?: string; allFrames?: boolean }>, plan: readonly PlannedScript[]): boolean {
  if (registered.length !== plan.length) return false;
  const key = (s: { id: string; js?: string[]; matches?: string[]; world?: string; runAt?: string; allFrames?: boolean }) =>
    JSON.stringify([s.id, s.js ?? [], [...(s.matches ?? [])].sort(), s.world ?? 'ISOLATED', s.runAt ?? 'document_idle', s.allFrames ?? false]);
  const want = new Set(plan.map(key));
  return registered.every((r) => want.has(key(r)));
}

/**
 * Whether this browser has native WebMCP, revised by one page's report: a top frame that sees
 * native WebMCP says yes; a top frame that sees none at all while Steward relied on native (so it
 * left the polyfill off) says no, e.g. after the browser's WebMCP flag was turned off. Frames and
 * polyfill reports change nothing.
 */
export function nativeBelief(current: boolean, report: { api: 'native' | 'polyfill' | 'none'; topFrame: boolean }): boolean {
  if (report.api === 'native') return true;
  if (report.api === 'none' && report.topFrame) return false;
  return current;
}
