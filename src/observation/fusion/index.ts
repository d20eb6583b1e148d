// Fusion: PageSnapshot + network + WebMCP tools + adapters → ObservedState (pure).
export { fuseWithDetail, FusionError } from './fuse.ts';
export { summarizeScreenshot, type ScreenshotSummary } from './screenshot.ts';
