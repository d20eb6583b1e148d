import type { AvailableActionInput } from '../../protocol/action.ts';
import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';
import { FIELD, quote, type Claim } from '../read/claims.ts';
import { cleanResourceId } from '../read/values.ts';
import type { Adapter, AdapterAction } from './format.ts';
import { matchAdapter } from './match.ts';
import { findElement, readValue } from './read-value.ts';

/**
 * Runs a matching adapter over a snapshot. Its readings become claims with source `adapter`, so
 * fusion cross-checks them against the DOM and the other sources like any other evidence.
 */

export interface AdapterActionBinding {
  /** The action as an agent sees it (via `adapter`, bound to its control's ref). */
  action: AvailableActionInput;
  /** What an executor needs: the control to activate and the control for each input. */
  targetRef: string;
  inputRefs: Record<string, string>;
  /** Offered only in these states (checked against the fused state). */
  states?: string[];
}

export interface AdapterOutput {
  adapterId: string;
  claims: Claim[];
  expected: string[];
  actions: AdapterActionBinding[];
  /** What the adapter expected to read and could not (the page changed under it). */
  conflicts: string[];
}

function usable(e: SnapshotElement | undefined): e is SnapshotElement {
  return e !== undefined && (e.visibility === 'visible' || e.visibility === 'offscreen') && !e.states.includes('disabled');
}

function bindAction(adapterId: string, a: AdapterAction, elements: readonly SnapshotElement[]): AdapterActionBinding | undefined {
  const target = findElement(elements, a.target);
  if (!usable(target)) return undefined;
  const inputRefs: Record<string, string> = {};
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, input] of Object.entries(a.inputs)) {
    const control = findElement(elements, input.element);
    if (!usable(control)) {
      if (input.required) return undefined;
      continue;
    }
    inputRefs[name] = control.ref;
    properties[name] = input.schema;
    if (input.required) required.push(name);
  }
  const action: AvailableActionInput = {
    action: a.name,
    via: 'adapter',
    title: a.title ?? a.name,
    description: a.description ?? `${adapterId}: ${target.role} ${quote(target.name)}`,
    read_only: a.read_only,
    ...(a.changes ? { changes: a.changes } : {}),
    consequential: a.consequential,
    payment: a.payment,
    requires_approval: !a.read_only || a.consequential || a.payment,
    input_schema: { type: 'object', properties, required, additionalProperties: false },
    target_ref: target.ref,
  };
  return { action, targetRef: target.ref, inputRefs, ...(a.states ? { states: a.states } : {}) };
}

export function runAdapter(adapter: Adapter, snapshot: PageSnapshot, elements: readonly SnapshotElement[] = snapshot.elements): AdapterOutput | undefined {
  const match = matchAdapter(adapter, snapshot);
  if (!match) return undefined;
  const claims: Claim[] = [];
  const conflicts: string[] = [];
  const read = (field: string, rule: Parameters<typeof readValue>[0], missing: string) => {
    const r = readValue(rule, snapshot, elements, match.groups);
    if (r?.value === undefined) {
      conflicts.push(missing);
      return;
    }
    claims.push({ field, value: r.value, source: 'adapter', strength: 1, ...(r.raw.ref ? { ref: r.raw.ref } : {}), why: `adapter ${adapter.id}: ${r.raw.where} ${quote(r.raw.text)}` });
  };
  claims.push({ field: FIELD.resourceType, value: adapter.resource.type, source: 'adapter', strength: 1, why: `adapter ${adapter.id}` });
  const id = readValue(adapter.resource.id, snapshot, elements, match.groups);
  const cleanId = typeof id?.value === 'string' ? cleanResourceId(id.value) : undefined;
  if (cleanId) claims.push({ field: FIELD.resourceId, value: cleanId, source: 'adapter', strength: 1, why: `adapter ${adapter.id}: ${id!.raw.where}` });
  else conflicts.push('adapter_resource_id_not_observed');
  if (adapter.state) read(FIELD.state, adapter.state, 'adapter_state_not_observed');
  for (const [field, rule] of Object.entries(adapter.fields)) read(field, rule, `adapter_${field}_not_observed`);
  const actions = adapter.actions.map((a) => bindAction(adapter.id, a, elements)).filter((b): b is AdapterActionBinding => b !== undefined);
  return { adapterId: adapter.id, claims, expected: adapter.expect, actions, conflicts };
}
