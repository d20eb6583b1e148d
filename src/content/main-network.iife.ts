// Main-world content script (document_start) used instead of main-world.iife.ts when the person
// turns Steward's WebMCP polyfill off: network observation only, no polyfill code on the page.
import { startMainWorld } from './main/start-main-world.ts';

startMainWorld();
