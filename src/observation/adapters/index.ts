// Declarative per-site adapters: format, matching, evaluation, the shop adapter, a registry.
export { Adapter } from './format.ts';
export { type AdapterActionBinding } from './evaluate.ts';
export { shopAdapter } from './shop.ts';
export { AdapterRegistry } from './registry.ts';
