import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The floors of src/ and the rules that keep them: each folder imports only from the folders
 * below it, no file reaches back through a cycle, and the pure folders never touch the browser's
 * extension APIs (so they run, and are tested, in plain Node). Read from the import statements
 * themselves, so a new file is checked the day it is added.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

interface SourceFile {
  /** Path from the repository root, e.g. `src/storage/db.ts`. */
  path: string;
  text: string;
  /** Files of ours it imports (repository-relative), type-only imports included. */
  local: string[];
  /** Package imports (`zod`, `idb`, …). */
  packages: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

function read(full: string): SourceFile {
  const text = readFileSync(full, 'utf8');
  // Vite's `?script&iife` and the like name the same file.
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName.replace(/\?.*$/, ''));
  const path = relative(ROOT, full);
  return {
    path,
    text,
    // The message catalogue (public/_locales/en/messages.json) is data that types every layer's `t` keys, not code of a layer.
    local: specifiers
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(ROOT, resolve(dirname(full), s)))
      .filter((p) => p !== 'public/_locales/en/messages.json'),
    packages: specifiers.filter((s) => !s.startsWith('.')),
  };
}

const files = walk(SRC).map(read);
const byPath = new Map(files.map((f) => [f.path, f]));

/** `src/storage/db.ts` → `storage`. */
const layerOf = (path: string) => path.split('/')[1]!;

function importsOf(layer: string): Array<{ from: string; to: string }> {
  return files.filter((f) => layerOf(f.path) === layer).flatMap((f) => f.local.map((to) => ({ from: f.path, to })));
}

/** Imports from `layer` that land outside the `allowed` layers. */
function outside(layer: string, allowed: readonly string[]): string[] {
  return importsOf(layer)
    .filter(({ to }) => !allowed.includes(layerOf(to)))
    .map(({ from, to }) => `${from} → ${to}`);
}

/**
 * The service worker's own floors: `service-worker.ts` and the composition root `compose.ts` at
 * src/background/ itself (they import everything, nothing imports them), `core/` below every
 * feature (the Chrome adapters: browser, channels and senders, tab messaging, storage access,
 * alarms, sessions, the managed policy), and the feature folders between, each handed its
 * dependencies by the composition root.
 */
const ROOT_FILES = '(composition root)';

/** `src/background/panel/sites.ts` → `panel`; a file at src/background/ itself → ROOT_FILES; outside the worker → undefined. */
function workerFolderOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[1] !== 'background') return undefined;
  return parts.length > 3 ? parts[2] : ROOT_FILES;
}

/**
 * The imports one feature folder of the service worker may make of another, and why. Every other
 * dependency is passed in by the composition root. Mostly types: the interface a folder
 * implements or is handed.
 */
const FEATURE_EDGES: Record<string, string> = {
  'contract → panel': 'the contract path implements the panel’s ContractControl',
  'contract → ports': 'the contract path implements the ports’ ContractPorts and reads their observed tabs',
  'copilot → ports': 'the co-pilot reads the observer’s outcome (ObserveOutcome)',
  'mcp → panel': 'the MCP adapter implements the panel’s PairingControl and reads the sites through SitesControl',
  'mcp → pipeline': 'pairing requests are announced through the approval announcer’s notification and badge APIs',
  'mcp → ports': 'an agent’s tab opens through the fenced navigation and waits for load like the pipeline’s own',
  'mcp → tools': 'agents list the tools pages reported (ToolStore)',
  'pages → sites': 'content reports are accepted only from allowed sites (SiteAccess)',
  'pages → tools': 'content reports fill the tool registry (ToolStore)',
  'panel → audit-export': 'the panel’s audit export settings (AuditExportControl)',
  'panel → copilot': 'the panel starts and steers co-pilot runs (RunManager)',
  'panel → observation': 'the panel’s observe request (ObservationService)',
  'panel → pipeline': 'the panel sets the audit retention (AuditRetentionSetting)',
  'panel → ports': 'the panel shows the observer’s outcome (ObserveOutcome)',
  'panel → sites': 'the panel lists the sites with their overview (SitesOverview)',
  'panel → tools': 'the panel lists and runs reported tools (ToolStore, PanelRunRequest)',
  'ports → navigation': 'every navigation an agent causes is fenced (navigation/fence.ts)',
  'ports → observation': 'the observer fuses the page snapshot the observation service takes',
  'ports → tools': 'the observer fuses the tools pages reported, as agents may see them',
  'presence → copilot': 'a co-pilot run shows on its tab (RunManager)',
};

/** Strongly connected groups of more than one node (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** `chrome.…` / `browser.…` in code (values or types), never in comments or strings. */
function extensionApiUses(file: SourceFile): string[] {
  // Parsing is the slow part: only files that mention the names at all are parsed.
  if (!/\b(chrome|browser)\s*\./.test(file.text)) return [];
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, file.path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const uses: string[] = [];
  const visit = (node: ts.Node): void => {
    const head = ts.isPropertyAccessExpression(node) ? node.expression : ts.isQualifiedName(node) ? node.left : undefined;
    if (head && ts.isIdentifier(head) && (head.text === 'chrome' || head.text === 'browser')) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      uses.push(`${file.path}:${line + 1}: ${node.getText().slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

describe('architecture: the floors of src/', () => {
  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const layer of ['base', 'protocol', 'storage', 'pipeline', 'observation', 'webmcp', 'agent', 'mcp', 'contract', 'content', 'sidepanel', 'background']) {
      expect(
        files.some((f) => layerOf(f.path) === layer),
        layer,
      ).toBe(true);
    }
  });

  it('every relative import names a file that exists', () => {
    const missing = files.flatMap((f) => f.local.filter((to) => !byPath.has(to)).map((to) => `${f.path} → ${to}`));
    expect(missing).toEqual([]);
  });

  it('src/base imports nothing of ours and no package', () => {
    expect(outside('base', ['base'])).toEqual([]);
    expect(files.filter((f) => layerOf(f.path) === 'base').flatMap((f) => f.packages)).toEqual([]);
  });

  it('src/protocol imports only src/base and itself, and of packages only zod', () => {
    expect(outside('protocol', ['base', 'protocol'])).toEqual([]);
    const packages = new Set(files.filter((f) => layerOf(f.path) === 'protocol').flatMap((f) => f.packages));
    expect([...packages].filter((p) => p !== 'zod')).toEqual([]);
  });

  it('src/storage sits below the pipeline: base, protocol and itself only', () => {
    expect(outside('storage', ['base', 'protocol', 'storage'])).toEqual([]);
  });

  it('src/pipeline never imports the service worker, the content scripts or the side panel', () => {
    expect(outside('pipeline', ['base', 'protocol', 'storage', 'webmcp', 'pipeline'])).toEqual([]);
  });

  it('src/observation and src/webmcp import only base, protocol and themselves', () => {
    expect(outside('observation', ['base', 'protocol', 'observation'])).toEqual([]);
    expect(outside('webmcp', ['base', 'protocol', 'webmcp'])).toEqual([]);
  });

  it("src/agent (the co-pilot's loop) imports only base, protocol, the observation renderer, and pipeline types", () => {
    const typeOnly = (from: string) => {
      const text = byPath.get(from)!.text;
      return [...text.matchAll(/^import type [^;]+ from '([^']+)';/gm)].map((m) => relative(ROOT, resolve(dirname(join(ROOT, from)), m[1]!)));
    };
    const allowed = ({ from, to }: { from: string; to: string }) =>
      ['base', 'protocol', 'agent'].includes(layerOf(to)) || to.startsWith('src/observation/render/') || (layerOf(to) === 'pipeline' && typeOnly(from).includes(to));
    expect(
      importsOf('agent')
        .filter((i) => !allowed(i))
        .map(({ from, to }) => `${from} → ${to}`),
    ).toEqual([]);
  });

  it('src/mcp (what an MCP client may call) imports only base, protocol, the observation renderer, and pipeline types', () => {
    const typeOnly = (from: string) => {
      const text = byPath.get(from)!.text;
      return [...text.matchAll(/^import type [^;]+ from '([^']+)';/gm)].map((m) => relative(ROOT, resolve(dirname(join(ROOT, from)), m[1]!)));
    };
    const allowed = ({ from, to }: { from: string; to: string }) =>
      ['base', 'protocol', 'mcp'].includes(layerOf(to)) || to.startsWith('src/observation/render/') || (layerOf(to) === 'pipeline' && typeOnly(from).includes(to));
    expect(
      importsOf('mcp')
        .filter((i) => !allowed(i))
        .map(({ from, to }) => `${from} → ${to}`),
    ).toEqual([]);
  });

  it('src/contract (the site contract client) imports only base, protocol, itself, and pipeline types', () => {
    const typeOnly = (from: string) => {
      const text = byPath.get(from)!.text;
      return [...text.matchAll(/^import type [^;]+ from '([^']+)';/gm)].map((m) => relative(ROOT, resolve(dirname(join(ROOT, from)), m[1]!)));
    };
    const allowed = ({ from, to }: { from: string; to: string }) => ['base', 'protocol', 'contract'].includes(layerOf(to)) || (layerOf(to) === 'pipeline' && typeOnly(from).includes(to));
    expect(
      importsOf('contract')
        .filter((i) => !allowed(i))
        .map(({ from, to }) => `${from} → ${to}`),
    ).toEqual([]);
  });

  it('src/content never imports the service worker, the pipeline, storage or the side panel', () => {
    expect(outside('content', ['base', 'protocol', 'observation', 'webmcp', 'content'])).toEqual([]);
  });

  it('the side panel reaches the rest only through src/protocol (and src/base)', () => {
    expect(outside('sidepanel', ['base', 'protocol', 'sidepanel'])).toEqual([]);
  });

  it('no file imports itself back through a cycle, type-only imports included', () => {
    const graph = new Map(files.map((f) => [f.path, f.local]));
    expect(cycles(graph)).toEqual([]);
  });

  it('no folder imports itself back through a sibling folder', () => {
    // A folder and its own subfolders are one unit (an entry file uses its parts, the parts share
    // its helpers); between folders side by side, or in different floors, imports run one way.
    const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    const graph = new Map<string, string[]>();
    for (const f of files) {
      const from = dirname(f.path);
      const edges = graph.get(from) ?? [];
      for (const to of f.local.map(dirname)) if (!within(from, to) && !edges.includes(to)) edges.push(to);
      graph.set(from, edges);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('src/background/core (the Chrome adapters every feature uses) imports no other folder of the service worker', () => {
    const up = files
      .filter((f) => workerFolderOf(f.path) === 'core')
      .flatMap((f) => f.local.filter((to) => layerOf(to) === 'background' && workerFolderOf(to) !== 'core').map((to) => `${f.path} → ${to}`));
    expect(up).toEqual([]);
  });

  it('no feature folder of the service worker imports the composition root (the files at src/background/ itself)', () => {
    const up = files
      .filter((f) => layerOf(f.path) === 'background' && workerFolderOf(f.path) !== ROOT_FILES)
      .flatMap((f) => f.local.filter((to) => workerFolderOf(to) === ROOT_FILES).map((to) => `${f.path} → ${to}`));
    expect(up).toEqual([]);
  });

  it('a feature folder of the service worker imports another only along the listed edges, which form no cycle', () => {
    const used = new Set<string>();
    const unlisted: string[] = [];
    for (const f of files) {
      const from = workerFolderOf(f.path);
      if (from === undefined || from === ROOT_FILES || from === 'core') continue;
      for (const to of f.local.map(workerFolderOf)) {
        if (to === undefined || to === from || to === 'core') continue;
        const edge = `${from} → ${to}`;
        if (FEATURE_EDGES[edge] === undefined) unlisted.push(`${f.path} → ${edge}`);
        else used.add(edge);
      }
    }
    expect(unlisted).toEqual([]);
    // An edge nobody uses any more is taken off the list, so the list stays the truth.
    expect(Object.keys(FEATURE_EDGES).filter((edge) => !used.has(edge))).toEqual([]);
    const graph = new Map<string, string[]>();
    for (const edge of Object.keys(FEATURE_EDGES)) {
      const [from, to] = edge.split(' → ') as [string, string];
      graph.set(from, [...(graph.get(from) ?? []), to]);
      if (!graph.has(to)) graph.set(to, []);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('src/background imports from the rest of src/ only the pure floors (and the content scripts as built files)', () => {
    const pure = ['base', 'protocol', 'storage', 'pipeline', 'observation', 'webmcp', 'agent', 'mcp', 'contract', 'background'];
    const builtFiles = 'src/background/sites/content-script-files.ts';
    expect(outside('background', pure).filter((edge) => !edge.startsWith(`${builtFiles} → src/content/`))).toEqual([]);
  });

  it('the pure folders never call the extension APIs (chrome.* / browser.*)', () => {
    const pure = ['base', 'protocol', 'storage', 'pipeline', 'observation', 'webmcp', 'agent', 'mcp', 'contract'];
    const pureFiles = files.filter((f) => pure.includes(layerOf(f.path)) || f.path.startsWith('src/sidepanel/lib/'));
    expect(pureFiles.flatMap(extensionApiUses)).toEqual([]);
    expect(pureFiles.filter((f) => f.packages.includes('webextension-polyfill')).map((f) => f.path)).toEqual([]);
  }, 30_000);
});
