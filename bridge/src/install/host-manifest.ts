import { z } from 'zod';
import { BRIDGE_HOST_NAME } from '../../../src/protocol/bridge.ts';
import { EXTENSION_ID, originOf } from './extension-ids.ts';

/** The native-messaging host manifest (com.steward.bridge.json): what Chrome reads to start the launcher for Steward. */

const ORIGIN = /^chrome-extension:\/\/([a-p]{32})\/$/;

const HostManifest = z.object({
  name: z.string(),
  description: z.string().optional(),
  path: z.string().min(1),
  type: z.literal('stdio'),
  allowed_origins: z.array(z.string()),
});
type HostManifest = z.infer<typeof HostManifest>;

export const MANIFEST_FILE = `${BRIDGE_HOST_NAME}.json`;

export function hostManifestText(launcher: string, extensionIds: readonly string[]): string {
  const manifest: HostManifest = {
    name: BRIDGE_HOST_NAME,
    description: 'Steward MCP bridge: lets paired MCP clients reach Steward, through its gateway.',
    path: launcher,
    type: 'stdio',
    allowed_origins: extensionIds.map(originOf),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export type ReadManifest = { ok: true; launcher: string; extensionIds: string[] } | { ok: false; problem: string };

/** A manifest's launcher and allowed ids, or why it is not a host manifest for Steward's bridge. */
export function readHostManifest(text: string): ReadManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'is not valid JSON' };
  }
  const parsed = HostManifest.safeParse(json);
  if (!parsed.success)
    return { ok: false, problem: `is not a native-messaging host manifest (${parsed.error.issues[0]?.path.join('.') || 'top level'}: ${parsed.error.issues[0]?.message ?? 'invalid'})` };
  if (parsed.data.name !== BRIDGE_HOST_NAME) return { ok: false, problem: `names the host ${JSON.stringify(parsed.data.name)}, not ${BRIDGE_HOST_NAME}` };
  const extensionIds = parsed.data.allowed_origins.flatMap((origin) => ORIGIN.exec(origin)?.[1] ?? []).filter((id) => EXTENSION_ID.test(id));
  return { ok: true, launcher: parsed.data.path, extensionIds };
}
