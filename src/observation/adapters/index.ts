// Declarative per-site adapters: format, matching, evaluation, the shop adapter, a registry.
export { Adapter, AdapterAction, ValueRule, type AdapterDefinition } from './format.ts';
export { matchAdapter } from './match.ts';
export { compilePath } from './path-pattern.ts';
export { runAdapter, type AdapterOutput, type AdapterActionBinding } from './evaluate.ts';
export { shopAdapter, shopAdapterDefinition } from './shop.ts';
export { AdapterRegistry } from './registry.ts';
