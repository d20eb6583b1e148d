// The built content scripts, by file name in dist/ (crxjs emits each as a self-contained IIFE).
// Kept apart so the pure modules and their unit tests never import build-time file references.
import mainWithPolyfill from '../../content/main-world.iife.ts?script&iife';
import mainNetworkOnly from '../../content/main-network.iife.ts?script&iife';
import isolated from '../../content/isolated.iife.ts?script&iife';
import type { ContentScriptFiles } from './content-script-plan.ts';

export const CONTENT_SCRIPT_FILES: ContentScriptFiles = { mainWithPolyfill, mainNetworkOnly, isolated };
