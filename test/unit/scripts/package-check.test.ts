import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { packageProblems, RUNTIME_CONTENT_SCRIPTS } from '../../../scripts/package-check.ts';

const SCHEMA = readFileSync(new URL('../../../public/managed-schema.json', import.meta.url), 'utf8');

const manifest = {
  manifest_version: 3,
  name: 'Steward',
  key: 'MIIBIjAN',
  description: 'Lets AI agents use the sites you allow.',
  version: '0.1.0',
  minimum_chrome_version: '140',
  homepage_url: 'https://example.org/steward',
  icons: { 16: 'icons/icon-16.png' },
  action: { default_icon: { 16: 'icons/icon-16.png' } },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  background: { service_worker: 'service-worker-loader.js', type: 'module' },
  permissions: ['sidePanel', 'storage', 'scripting'],
  optional_host_permissions: ['http://*/*', 'https://*/*'],
  storage: { managed_schema: 'managed-schema.json' },
};

function archive(changes: Record<string, unknown> = {}, extra: Record<string, string> = {}): Map<string, Buffer> {
  const files = new Map<string, Buffer>([
    ['manifest.json', Buffer.from(JSON.stringify({ ...manifest, ...changes }))],
    ['icons/icon-16.png', Buffer.from('png')],
    ['src/sidepanel/index.html', Buffer.from('<script type="module" src="/assets/index.js"></script><link rel="stylesheet" href="/assets/index.css">')],
    ['assets/index.js', Buffer.from('console.log(1)')],
    ['assets/index.css', Buffer.from('body{}')],
    ['service-worker-loader.js', Buffer.from("import './assets/sw.js'")],
    ['managed-schema.json', Buffer.from(SCHEMA)],
    ...RUNTIME_CONTENT_SCRIPTS.map((f): [string, Buffer] => [f, Buffer.from('(()=>{})()')]),
  ]);
  for (const [name, text] of Object.entries(extra)) files.set(name, Buffer.from(text));
  return files;
}
const loadUnpacked = { version: '0.1.0', store: false };

describe('a package', () => {
  it('that is what a person should load has no problems', () => {
    expect(packageProblems(archive(), loadUnpacked)).toEqual([]);
    expect(packageProblems(archive({ key: undefined }), { version: '0.1.0', store: true })).toEqual([]);
  });

  it.each([
    ['a version other than package.json', { version: '0.0.9' }, /manifest version 0.0.9/],
    ['no key for Load unpacked', { key: undefined }, /no manifest `key`/],
    ['<all_urls> at install', { host_permissions: ['<all_urls>'] }, /host_permissions asks for <all_urls>/],
    ['a site at install', { host_permissions: ['https://example.org/*'] }, /host_permissions/],
    ['no optional host access', { optional_host_permissions: undefined }, /optional_host_permissions is missing/],
    ['optional access to every scheme', { optional_host_permissions: ['<all_urls>'] }, /<all_urls>/],
    ['no minimum Chrome version', { minimum_chrome_version: undefined }, /minimum_chrome_version/],
    ['no homepage', { homepage_url: undefined }, /homepage_url/],
    ['a description Chrome would cut', { description: 'x'.repeat(200) }, /description/],
    ['a missing icon', { icons: { 16: 'icons/icon-16.png', 128: 'icons/icon-128.png' } }, /icons\/icon-128.png, named by the manifest/],
    ['a missing service worker', { background: { service_worker: 'sw.js' } }, /sw.js, named by the manifest/],
  ])('with %s is refused', (_what, changes, problem) => {
    expect(packageProblems(archive(changes), loadUnpacked).join('\n')).toMatch(problem);
  });

  it('without the organisation’s policy schema, or with one Chrome would not take whole, is refused', () => {
    expect(packageProblems(archive({ storage: undefined }), loadUnpacked).join('\n')).toMatch(/no storage.managed_schema/);
    expect(packageProblems(archive({}, { 'managed-schema.json': '{"type":' }), loadUnpacked).join('\n')).toMatch(/managed-schema.json is not JSON/);
    const files = archive();
    files.delete('managed-schema.json');
    expect(packageProblems(files, loadUnpacked).join('\n')).toMatch(/managed-schema.json, named by the manifest, is not in the archive/);
    expect(packageProblems(archive({}, { 'managed-schema.json': '{"type":"object","properties":{"allowedSites":{"type":"array"}}}' }), loadUnpacked).join('\n')).toMatch(
      /does not declare blockedSites, mcpPairing/,
    );
  });

  it('for the store must not carry the key', () => {
    expect(packageProblems(archive(), { version: '0.1.0', store: true }).join('\n')).toMatch(/store package carries the manifest `key`/);
  });

  it('with source maps, test hooks or a page asset left out is refused', () => {
    expect(packageProblems(archive({}, { 'assets/index.js.map': '{}' }), loadUnpacked).join('\n')).toMatch(/source maps in the archive: assets\/index.js.map/);
    expect(packageProblems(archive({}, { 'assets/index.js': 'x\n//# sourceMappingURL=index.js.map' }), loadUnpacked).join('\n')).toMatch(/points at a source map/);
    expect(packageProblems(archive({}, { 'assets/sw.js': 'globalThis.stewardPipeline = p' }), loadUnpacked).join('\n')).toMatch(/test hooks: stewardPipeline/);
    const files = archive();
    files.delete('assets/index.css');
    expect(packageProblems(files, loadUnpacked).join('\n')).toMatch(/assets\/index.css, loaded by src\/sidepanel\/index.html/);
    files.delete(RUNTIME_CONTENT_SCRIPTS[0]!);
    expect(packageProblems(files, loadUnpacked).join('\n')).toMatch(/main-world.iife.js/);
  });

  it('without a manifest is nothing to load', () => {
    expect(packageProblems(new Map(), loadUnpacked)).toEqual(['the archive has no manifest.json at its root']);
  });
});
