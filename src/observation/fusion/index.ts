// Fusion: PageSnapshot + network + WebMCP tools + adapters → ObservedState (pure).
export { fuse, fuseWithDetail, FusionError, type FuseInput, type FusionDetail } from './fuse.ts';
export { fingerprint, type FingerprintInput } from './fingerprint.ts';
export { summarizeScreenshot, type ScreenshotSummary } from './screenshot.ts';
export { toSnakeCase } from '../read/normalize.ts';
export { canonicalState } from '../read/states.ts';
export type { Claim } from '../read/claims.ts';
