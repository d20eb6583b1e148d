/** Random, unguessable ids with the protocol's prefixes (`tok_`, `approval_`, `apreq_`, `act_`, `mem_`, `ses_`). */
export function newId(prefix: 'tok_' | 'approval_' | 'apreq_' | 'act_' | 'mem_' | 'ses_'): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return `${prefix}${hex}`;
}
