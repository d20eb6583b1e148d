// Imported before @mcp-b/global so the polyfill does not start itself (with its page-visible
// postMessage transports) on import: Steward decides below whether and how to install it.
(window as { __webModelContextOptions?: unknown }).__webModelContextOptions = { autoInitialize: false };
export {};
