import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BROWSERS } from './browsers.ts';
import { EXTENSION_ID } from './extension-ids.ts';

/**
 * What `install` wrote, kept in the bridge home (install.json), so `uninstall` removes exactly
 * that and `doctor` knows which browsers to check. Checked with its schema on every read: a record
 * that does not fit is treated as absent (and uninstall then looks for manifests that name this
 * home's launcher).
 */

const Browser = z.enum(BROWSERS);

/** A manifest file in a browser's NativeMessagingHosts dir (browsers empty: a profile given with --user-data-dir). */
const FileTarget = z.object({ kind: z.literal('file'), browsers: z.array(Browser), path: z.string().min(1) });
/** A Windows registry key naming the manifest next to the launcher (several Chrome channels share one key). */
const RegistryTarget = z.object({ kind: z.literal('registry'), browsers: z.array(Browser).min(1), key: z.string().min(1) });
const Target = z.discriminatedUnion('kind', [FileTarget, RegistryTarget]);
export type Target = z.infer<typeof Target>;

const InstallRecord = z.object({
  version: z.literal(1),
  launcher: z.string().min(1),
  /** Windows: the manifest the registry keys name, next to the launcher. */
  manifest: z.string().min(1).optional(),
  extension_ids: z.array(z.string().regex(EXTENSION_ID)).min(1),
  node: z.string().min(1),
  targets: z.array(Target),
});
export type InstallRecord = z.infer<typeof InstallRecord>;

export const recordPath = (home: string): string => join(home, 'install.json');

export type ReadRecord = { kind: 'none' } | { kind: 'invalid'; problem: string } | { kind: 'ok'; record: InstallRecord };

export function readRecord(home: string): ReadRecord {
  const path = recordPath(home);
  if (!existsSync(path)) return { kind: 'none' };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { kind: 'invalid', problem: `${path} is not JSON (${(error as Error).message})` };
  }
  const parsed = InstallRecord.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', problem: `${path} does not fit the install record (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})` };
  return { kind: 'ok', record: parsed.data };
}

export const recordText = (record: InstallRecord): string => `${JSON.stringify(InstallRecord.parse(record), null, 2)}\n`;

/** Where a target is, for messages and for matching. */
export const targetWhere = (target: Target): string => (target.kind === 'file' ? target.path : target.key);
