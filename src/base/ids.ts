import { hexOf } from './hash.ts';

/** Random, unguessable ids with the protocol's prefixes (`tok_`, `approval_`, `apreq_`, `act_`, `mem_`, `ses_`). */
export function newId(prefix: 'tok_' | 'approval_' | 'apreq_' | 'act_' | 'mem_' | 'ses_'): string {
  return `${prefix}${hexOf(crypto.getRandomValues(new Uint8Array(12)))}`;
}
