// `webmcp.wpt_pass`: the vendored web-platform-tests `webmcp/` subtests (test/fixtures/wpt-webmcp/)
// passed by Steward's polyfill in Chromium without its WebMCP feature, with native WebMCP's passes
// on the same pages, in the same run, as the anchor.
import { launchWithSteward } from '../test/harness/browser.ts';
import { passed, runWptWebMcp } from '../test/harness/wpt-webmcp-run.ts';
import type { Row } from './report.ts';

async function passes(nativeWebMcp: boolean, lab: string): Promise<{ passed: number; total: number }> {
  const browser = await launchWithSteward({ nativeWebMcp, allowSites: [lab] });
  try {
    const results = await runWptWebMcp(browser.context, lab);
    return { passed: passed(results).size, total: results.length };
  } finally {
    await browser.close();
  }
}

export async function wptRows(lab: string): Promise<Row[]> {
  const native = await passes(true, lab);
  const polyfill = await passes(false, lab);
  return [
    {
      metric: 'webmcp.wpt_pass',
      case: 'wpt-webmcp',
      value: polyfill.passed,
      unit: 'subtests',
      better: 'higher',
      anchor: 'native WebMCP',
      anchor_value: native.passed,
      note: `Subtests passed of ${polyfill.total} (polyfill, Chromium without WebMCP) and ${native.total} (native, Chromium's WebMCP feature on), the same vendored pages.`,
    },
  ];
}
