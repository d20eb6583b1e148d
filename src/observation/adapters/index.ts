// Declarative per-site adapters: format, matching, evaluation, the shop adapter, a registry.
export { Adapter, type AdapterDefinition } from './format.ts';
export { runAdapter, type AdapterActionBinding } from './evaluate.ts';
export { shopAdapter, shopAdapterDefinition } from './shop.ts';
export { AdapterRegistry } from './registry.ts';
