// What a Steward package (the zip `npm run package` writes) must be, checked on the archive's own
// files: the artefact a person loads or the Web Store receives, not the folder it was made from.
import { parsePolicy } from '../src/protocol/managed-policy.ts';
import { SITE_HOST_PATTERNS } from '../src/protocol/site-access.ts';
import { testHooksInScripts } from './bundle-test-hooks.ts';

/** Every key Steward reads from the policy: a policy that is not an object counts as setting each one (the strictest reading). */
const EVERY_POLICY_KEY = parsePolicy('not an object').policy.managed;

/** Page scripts the service worker registers at run time (chrome.scripting): the manifest does not name them. */
export const RUNTIME_CONTENT_SCRIPTS = ['src/content/main-world.iife.js', 'src/content/main-network.iife.js', 'src/content/isolated.iife.js'];

export interface PackageExpectation {
  /** package.json's version. */
  version: string;
  /** The Web Store's upload: no `key` (the store assigns the id). Otherwise the key must be there (Load unpacked gets the fixed id). */
  store: boolean;
}

interface Manifest {
  version?: unknown;
  key?: unknown;
  minimum_chrome_version?: unknown;
  homepage_url?: unknown;
  description?: unknown;
  permissions?: unknown;
  host_permissions?: unknown;
  optional_host_permissions?: unknown;
  background?: { service_worker?: unknown };
  side_panel?: { default_path?: unknown };
  icons?: Record<string, unknown>;
  storage?: { managed_schema?: unknown };
  action?: { default_icon?: Record<string, unknown> };
  content_scripts?: Array<{ js?: unknown; css?: unknown; matches?: unknown }>;
  web_accessible_resources?: Array<{ resources?: unknown }>;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);
const values = (v: Record<string, unknown> | undefined): string[] => strings(Object.values(v ?? {}));

/** The files the manifest names (globs left out), as archive paths. */
function namedFiles(m: Manifest): string[] {
  const named = [
    ...strings(m.background?.service_worker),
    ...strings(m.side_panel?.default_path),
    ...values(m.icons),
    ...strings(m.storage?.managed_schema),
    ...values(m.action?.default_icon),
    ...(m.content_scripts ?? []).flatMap((c) => [...strings(c.js), ...strings(c.css)]),
    ...(m.web_accessible_resources ?? []).flatMap((w) => strings(w.resources)).filter((r) => !r.includes('*')),
  ];
  return [...new Set(named.map((f) => f.replace(/^\//, '')))];
}

/** Scripts and styles an HTML page of the package loads from the package itself. */
function pageAssets(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!.slice(1));
}

/**
 * The organisation's policy schema: named, present, and an object schema Chrome accepts (a schema
 * Chrome cannot read keeps the whole extension from loading; a key missing from it is dropped).
 */
function managedSchemaProblems(files: ReadonlyMap<string, Buffer>, m: Manifest): string[] {
  const path = strings(m.storage?.managed_schema)[0];
  if (!path) return ['the manifest names no storage.managed_schema, so an organisation cannot set Steward’s policy'];
  const data = files.get(path.replace(/^\//, ''));
  if (!data) return [];
  try {
    const schema = JSON.parse(data.toString('utf8')) as { type?: unknown; properties?: unknown };
    const keys = Object.keys((schema.properties ?? {}) as object).sort();
    if (schema.type !== 'object') return [`${path} is not an object schema`];
    const missing = EVERY_POLICY_KEY.filter((k) => !keys.includes(k));
    return missing.length ? [`${path} does not declare ${missing.join(', ')}: Chrome would drop those policies`] : [];
  } catch {
    return [`${path} is not JSON`];
  }
}

/** Every way the archive falls short, in words; empty when it is a good package. */
export function packageProblems(files: ReadonlyMap<string, Buffer>, expect: PackageExpectation): string[] {
  const problems: string[] = [];
  const raw = files.get('manifest.json');
  if (!raw) return ['the archive has no manifest.json at its root'];
  let m: Manifest;
  try {
    m = JSON.parse(raw.toString('utf8')) as Manifest;
  } catch {
    return ['manifest.json is not JSON'];
  }
  if (m.version !== expect.version) problems.push(`manifest version ${String(m.version)} is not package.json's ${expect.version}`);
  if (expect.store && m.key !== undefined) problems.push('the store package carries the manifest `key` (the Chrome Web Store assigns its own id)');
  if (!expect.store && typeof m.key !== 'string') problems.push('the package has no manifest `key`, so Load unpacked would give Steward an id the bridge does not know');
  if (typeof m.minimum_chrome_version !== 'string' || !/^\d+$/.test(m.minimum_chrome_version)) problems.push('minimum_chrome_version is missing');
  if (typeof m.homepage_url !== 'string' || !m.homepage_url.startsWith('https://')) problems.push('homepage_url is missing');
  if (typeof m.description !== 'string' || m.description.length === 0 || m.description.length > 132) problems.push('the description is missing or longer than the 132 characters Chrome shows');
  if (strings(m.host_permissions).length > 0) problems.push(`host_permissions asks for ${strings(m.host_permissions).join(', ')} at install; site access is asked for per site`);
  const optional = strings(m.optional_host_permissions).sort();
  if (optional.join() !== [...SITE_HOST_PATTERNS].sort().join()) problems.push(`optional_host_permissions is ${optional.join(', ') || 'missing'}, not ${SITE_HOST_PATTERNS.join(', ')}`);
  const everyMatch = [...strings(m.permissions), ...strings(m.host_permissions), ...optional, ...(m.content_scripts ?? []).flatMap((c) => strings(c.matches))];
  if (everyMatch.includes('<all_urls>')) problems.push('the manifest names <all_urls>');
  for (const file of [...namedFiles(m), ...RUNTIME_CONTENT_SCRIPTS]) {
    if (!files.has(file)) problems.push(`${file}, named by the manifest, is not in the archive`);
    else if (file.endsWith('.html')) {
      for (const asset of pageAssets(files.get(file)!.toString('utf8'))) if (!files.has(asset)) problems.push(`${asset}, loaded by ${file}, is not in the archive`);
    }
  }
  problems.push(...managedSchemaProblems(files, m));
  const maps = [...files.keys()].filter((f) => f.endsWith('.map'));
  if (maps.length > 0) problems.push(`source maps in the archive: ${maps.join(', ')}`);
  const scripts = [...files].filter(([f]) => f.endsWith('.js')).map(([, data]) => data.toString('utf8'));
  if (scripts.some((s) => s.includes('sourceMappingURL='))) problems.push('a script points at a source map');
  const hooks = testHooksInScripts(scripts);
  if (hooks.length > 0) problems.push(`the scripts carry test hooks: ${hooks.join(', ')}`);
  return problems;
}
