// Fusion: PageSnapshot + network + WebMCP tools + adapters → ObservedState (pure).
export { fuse, fuseWithDetail, FusionError, type FuseInput } from './fuse.ts';
export { fingerprint } from './fingerprint.ts';
export { summarizeScreenshot, type ScreenshotSummary } from './screenshot.ts';
