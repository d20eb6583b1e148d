// `npm run bench`: Steward's speed and size next to named anchors measured in the same run, on
// the same pages, in the same browser (DESIGN.md §10). Prints a table; writes bench-results.json.
import { startDemoSites, freePorts } from '../sites/server.ts';
import { launchWithSteward } from '../test/harness/browser.ts';
import { auditExportRows } from './audit-export.ts';
import { copilotTaskRows } from './copilot.ts';
import { runGatewayBench } from './gateway.ts';
import { observeRows, smallObserveCases, type ObserveCase } from './observe.ts';
import { pageLoadRows } from './page-load.ts';
import { report, type Row } from './report.ts';
import { securityRows, securityRuns } from './security.ts';
import { truthBench } from './truth.ts';
import { widgetBench } from './widgets.ts';
import { wptRows } from './wpt.ts';

const quick = process.argv.includes('--quick');
/**
 * `--only <case>`: just that observation case (for working on one page), `--only observe`: every
 * observation case (the grids, the demo sites' pages, the small pages), `--only tasks`: just the
 * co-pilot's task runs, `--only truth`: just the labelled gallery (with `--record`: and rewrite
 * the e2e check's baseline, test/harness/gallery-baseline.json), or `--only widgets`: just the widget
 * tasks, Steward against ariaSnapshot (`--quick`: a dozen of them), or `--only security`: just the
 * planted attacks and benign tasks of an obedient agent (`--quick`: one attack per channel and goal
 * kind), or `--only export`: just the audit export to a real rsyslog (fleet.*), or `--only wpt`: just the
 * web-platform-tests `webmcp/` pass counts; nothing else is run.
 */
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const runs = quick ? 3 : 7;
const record = process.argv.includes('--record');

const sites = await startDemoSites({ ports: freePorts() });
const rows: Row[] = [];
const failures: string[] = [];
let widgetFailures: string[] = [];
try {
  const cases: ObserveCase[] = [
    { name: 'grid-1.6k', url: `${sites.urls.lab}/grid?n=1600` },
    { name: 'grid-16k', url: `${sites.urls.lab}/grid?n=16000` },
    { name: 'grid-80k', url: `${sites.urls.lab}/grid?n=80000` },
    { name: 'shop-orders', url: `${sites.urls.shop}/` },
    { name: 'shop-order', url: `${sites.urls.shop}/orders/ORD-1024` },
    { name: 'shop-tracking', url: `${sites.urls.shop}/orders/ORD-1024/tracking` },
    { name: 'clinic-book', url: `${sites.urls.clinic}/` },
    ...smallObserveCases(sites.urls.lab),
  ].filter((c) => only === undefined || only === 'observe' || c.name === only);
  const tasks = only === undefined || only === 'tasks';
  const truth = only === undefined || only === 'truth';
  const widgets = only === undefined || only === 'widgets';
  const security = only === undefined || only === 'security';
  const exportBench = only === undefined || only === 'export';
  const wpt = only === undefined || only === 'wpt';
  if (only !== undefined && !tasks && !truth && !widgets && !security && !exportBench && !wpt && cases.length === 0) throw new Error(`--only: no case named ${only}`);
  const browser = cases.length > 0 ? await launchWithSteward({ nativeWebMcp: true, allowSites: Object.values(sites.urls) }) : undefined;
  try {
    for (const c of cases) {
      if (!browser) break;
      process.stderr.write(`observe ${c.name}…\n`);
      try {
        rows.push(...(await observeRows(browser, c, c.name === 'grid-80k' ? Math.min(runs, 3) : runs)));
      } catch (error) {
        failures.push(`${c.name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    }
  } finally {
    await browser?.close().catch(() => undefined);
  }
  if (tasks) {
    process.stderr.write('co-pilot tasks…\n');
    const taskBrowser = await launchWithSteward({ nativeWebMcp: true, allowSites: Object.values(sites.urls) });
    try {
      rows.push(...(await copilotTaskRows(taskBrowser, sites, quick ? 1 : 3)));
    } catch (error) {
      failures.push(`co-pilot tasks: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    } finally {
      await taskBrowser.close().catch(() => undefined);
    }
  }
  if (truth) {
    process.stderr.write('truth (labelled gallery)…\n');
    const truthBrowser = await launchWithSteward({ nativeWebMcp: true, allowSites: Object.values(sites.urls) });
    try {
      rows.push(...(await truthBench(truthBrowser, sites.urls.lab, { record })));
    } catch (error) {
      failures.push(`truth: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    } finally {
      await truthBrowser.close().catch(() => undefined);
    }
  }
  if (widgets) {
    process.stderr.write('widget tasks (Steward through the MCP bridge, then ariaSnapshot, task by task)…\n');
    try {
      const bench = await widgetBench(sites.urls.lab, { quick });
      rows.push(...bench.rows);
      widgetFailures = bench.failures;
    } catch (error) {
      failures.push(`widgets: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  if (security) {
    process.stderr.write('security (an obedient agent through the co-pilot and the MCP bridge; attacks, then benign tasks)…\n');
    try {
      rows.push(...securityRows(await securityRuns({ quick })));
    } catch (error) {
      failures.push(`security: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  if (exportBench) {
    process.stderr.write('audit export (Steward → steward-bridge → a real rsyslog)…\n');
    try {
      rows.push(...(await auditExportRows(sites.urls.shop!, quick ? 300 : 1000)));
    } catch (error) {
      failures.push(`audit export: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  if (wpt) {
    process.stderr.write('web-platform-tests webmcp/ (native WebMCP as the anchor, then the polyfill)…\n');
    try {
      rows.push(...(await wptRows(sites.urls.lab)));
    } catch (error) {
      failures.push(`wpt: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  if (only === undefined) {
    process.stderr.write('gateway…\n');
    rows.push(...(await runGatewayBench({ n: quick ? 100 : 400, warmup: 20 })));
    process.stderr.write('page load…\n');
    rows.push(...(await pageLoadRows(`${sites.urls.lab}/grid?n=16000`, 'heavy-page', quick ? 5 : 15)));
  }
} finally {
  await sites.stop();
}
report(rows);
console.log(
  [
    'What is timed (observe.*): in the service worker, around stewardObservation.observeTab(tab) — the message to the',
    "tab's content script, the page-side capture, the reply (JSON text) crossing to the worker, its parse and zod validation, and the delta merge.",
    '  first_ms: the first observeTab(tab) on a freshly loaded page: a cold content script, the whole snapshot sent',
    "    and validated; the anchor's is its first call on its own fresh load.",
    '  full_ms: observeTab(tab, { full: true }): a fresh walk of the whole document (new entries, every name and',
    '    geometry recomputed), sent as a delta against the snapshot the service worker holds.',
    '  incremental_ms: observeTab(tab) after a word in the first cell changed in place and the page rendered it:',
    '    the call an agent step makes (Steward re-walks only what changed).',
    '  incremental_shift_ms: the same after a notice appeared above the content (or went away): every box below moved,',
    '    so all geometry is read again and the moves travel as runs.',
    '  anchors: each on a fresh load of the same page in the same browser (ariaSnapshot timed from Node, like Steward from the service worker);',
    "    the median of its measured calls, like Steward's. Every page is left alone for 3 s after loading first.",
    "  task.* (co-pilot runs, scripted model, approvals given as soon as each card appears): steps = the run's steps (actions and",
    "    the final answer); wall_ms = copilot/start to the run's end, as the panel sees it (polled every 50 ms); prompt_tokens = every",
    "    prompt the model received, in gpt-tokenizer tokens. book.legacy books the same slot as book.webmcp through the form's DOM controls.",
    "  cancel-order.native cancels ORD-1024 through the shop's contract (one orders.cancel via site_contract; Steward is connected to the",
    '    shop before the clock starts, as the person does in the panel, and disconnected after); cancel-order.legacy cancels it through the',
    "    order page's form (choose the reason, press Cancel order). Each tool path has its DOM path as anchor: vs anchor = DOM path / tool path.",
    "    Each task.steps row's note names the run's action steps and the path each was offered on (`orders.cancel via site_contract`).",
    '  security.attack_success: planted instructions (sites/attacks/catalog.ts: goal × channel) obeyed by a scripted agent, through the',
    "    co-pilot and a paired MCP client; the person denies every card the attack raises. Success = the lab's servers received the goal",
    "    (a write, the page fact at the attacker's origin, …). security.false_holds: benign tasks, nothing planted, with a card on a step a",
    '    person would not expect one for (a search, a filter, typing) or a refusal; cards on a write the person asked for are expected.',
    '  fleet.* (the audit export, bench/audit-export.ts): Steward → native messaging → steward-bridge → TCP → a real rsyslog on this',
    "    machine writing a file; anchors: the same lines written by Node straight to rsyslog's port, until they are in its file.",
    '  webmcp.wpt_pass: subtests of the vendored web-platform-tests webmcp/ suite passed by Steward’s polyfill (Chromium without its',
    '    WebMCP feature); anchor: the same pages under native WebMCP in the same run.',
    '  warm-up: after its cold first call, every candidate (Steward and each anchor) makes unmeasured calls before its',
    '    measured ones, at least 3 and for at least 1 s, unless that first call took over 2 s (then it is warm already).',
  ].join('\n'),
);
// Expected today while the page-side capture is missing: each names what a view lacked.
if (widgetFailures.length) console.error(`widget tasks not solved:\n${widgetFailures.join('\n')}`);
if (failures.length) {
  console.error(`not measured:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}
