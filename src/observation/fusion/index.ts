// Fusion: PageSnapshot + network + WebMCP tools + adapters → ObservedState (pure).
export { fuse, fuseWithDetail, FusionError, type FuseInput, type FusionDetail } from './fuse.ts';
export { fingerprint, type FingerprintInput } from './fingerprint.ts';
export { summarizeScreenshot, type ScreenshotSummary } from './screenshot.ts';
export { toSnakeCase } from './normalize.ts';
export { canonicalState } from './states.ts';
export type { Claim } from './claims.ts';
