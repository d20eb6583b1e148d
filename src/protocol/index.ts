// The protocol module: pure zod schemas and types shared by every context (no chrome.*, DOM or Node APIs).
export * from './primitives.ts';
export * from './resource.ts';
export * from './element.ts';
export * from './action-name.ts';
export * from './action.ts';
export * from './observed-state.ts';
export * from './errors.ts';
export * from './results.ts';
export * from './token.ts';
export * from './approval.ts';
export * from './audit.ts';
export * from './memory.ts';
export * from './journal.ts';
export * from './bench.ts';
export * from './validate.ts';
export * from './webmcp.ts';
export * from './messages.ts';
