import { readFileSync } from 'node:fs';
import { verifyJsonl } from '../../../src/storage/audit-chain.ts';
import { describeOutcome, verifyLines } from './verify-lines.ts';

/**
 * `steward-bridge audit verify <files…>`: reads the files a collector wrote (in the order given,
 * oldest first after rotation) and checks every browser's chain in them; or one log downloaded
 * from Steward's panel (JSON Lines, an entry per line with its chain, then the signed head). Exit 0
 * with one line per chain; 1 naming the first break; 2 for a usage error.
 */
export async function runAudit(args: string[], io: { out: (text: string) => void; err: (text: string) => void }): Promise<number> {
  const [sub, ...files] = args;
  if (sub !== 'verify' || files.length === 0 || files.some((f) => f.startsWith('-'))) {
    io.err('usage: steward-bridge audit verify <file>…  (the files your syslog collector wrote, oldest first; or one .jsonl downloaded from Steward)\n');
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
  const downloads = sources.filter((s) => isStewardDownload(s.text));
  if (downloads.length > 0) {
    if (sources.length > 1) {
      io.err('a log downloaded from Steward is verified on its own: give one .jsonl file\n');
      return 2;
    }
    return verifyDownload(sources[0]!, io);
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

/** A panel download is JSON Lines (its first line a JSON object); a collector's file is syslog text. */
function isStewardDownload(text: string): boolean {
  return /^\s*\{/.test(text);
}

/**
 * Checks a download's chain from its start (or seq 0) to the head it ends with. The head's
 * signature needs the key inside the browser (the panel's "Verify a downloaded log…" checks it);
 * here, the entries must chain to exactly the head the file names.
 */
async function verifyDownload(source: { file: string; text: string }, io: { out: (text: string) => void; err: (text: string) => void }): Promise<number> {
  // A head is required (a file cut short has none); its MAC cannot be checked outside the browser.
  const v = await verifyJsonl(source.text, () => Promise.resolve(true));
  if (!v.ok) {
    io.err(`audit chain broken: ${source.file}: seq ${v.seq}: ${v.problem}: ${v.message}\n`);
    return 1;
  }
  const first = v.removed_through === undefined ? 0 : v.removed_through + 1;
  const from = v.removed_through === undefined ? '' : ` (entries through seq ${v.removed_through} were removed, as the log records)`;
  io.out(
    `${source.file}: seq ${first}–${first + v.count - 1}, ${v.count} entr${v.count === 1 ? 'y' : 'ies'}, unbroken${from}; head ${v.head_hash} (its signature can only be checked in Steward's panel)\n`,
  );
  return 0;
}
