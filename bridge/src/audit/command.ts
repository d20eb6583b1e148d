import { readFileSync } from 'node:fs';
import { describeOutcome, verifyLines } from './verify-lines.ts';

/**
 * `steward-bridge audit verify <files…>`: reads the files a collector wrote (in the order given,
 * oldest first after rotation) and checks every browser's chain in them. Exit 0 with one line per
 * chain; 1 naming the first break; 2 for a usage error.
 */
export function runAudit(args: string[], io: { out: (text: string) => void; err: (text: string) => void }): number {
  const [sub, ...files] = args;
  if (sub !== 'verify' || files.length === 0 || files.some((f) => f.startsWith('-'))) {
    io.err('usage: steward-bridge audit verify <file>…  (the files your syslog collector wrote, oldest first)\n');
    return 2;
  }
  const sources = [];
  for (const file of files) {
    try {
      sources.push({ file, text: readFileSync(file, 'utf8') });
    } catch (error) {
      io.err(`cannot read ${file}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const outcome = verifyLines(sources);
  if (outcome.ok) {
    if (outcome.chains.length === 0) {
      io.err(`${describeOutcome(outcome)} in ${files.join(', ')}\n`);
      return 1;
    }
    io.out(`${describeOutcome(outcome)}\n`);
    return 0;
  }
  io.err(`audit chain broken: ${describeOutcome(outcome)}\n`);
  return 1;
}
