import { FENCE_MARKS, FENCE_OUTPUT, FENCE_TOOL } from '../../sites/lab/webmcp-fence.ts';
import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { offered } from '../harness/copilot-driver.ts';
import { configureCopilot, startRun, waitForRun } from '../harness/copilot-helpers.ts';
import { callTool, dataBlocks, done, promptOf } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';

/**
 * Every page word fenced (issue 27, defect 3): a page's WebMCP tool puts instructions in its name,
 * description, schema title, property name, parameter description, enum and default, and the page's
 * address carries one too. What the model server received (the ground truth, not Steward's report)
 * has each of them only inside the prompt's nonce data blocks: outside them are only Steward's own
 * words. The tool's output runs past Chrome's 1,500-character budget: the model gets its start,
 * marked truncated with the whole length, never its end.
 */

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

/** The parts of the prompt outside every data block (Steward's own words). */
function outsideBlocks(prompt: string): string {
  let out = '';
  let at = 0;
  for (const b of [...dataBlocks(prompt)].sort((x, y) => x.start - y.start)) {
    if (b.start < at) continue;
    out += prompt.slice(at, b.start);
    at = b.end;
  }
  return out + prompt.slice(at);
}

test("a tool's page-chosen words and the page's address reach the model only inside data blocks, and its output only within the budget", async ({ steward, sites, openPanel, tabIdOf }) => {
  model.script([callTool(FENCE_TOOL, {}, 'the account summary is shown')]);
  model.fallback(done('The account summary is shown.'));

  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/webmcp/fence?MARK_URL_obey=1`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await configureCopilot(panel, model);
  await offered(panel, tabId, FENCE_TOOL);

  const started = await startRun(panel, tabId, 'Show me the account summary.');
  const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);
  expect(model.requests.length, JSON.stringify(run.steps)).toBeGreaterThanOrEqual(2);

  const first = promptOf(model.requests[0]!);
  const inside = dataBlocks(first)
    .map((b) => b.text)
    .join('\n');
  for (const [where, mark] of Object.entries({ ...FENCE_MARKS, name: FENCE_TOOL, url: 'MARK_URL_obey' })) {
    expect(inside, `${where} reaches the model, inside a block`).toContain(mark);
    expect(outsideBlocks(first), `${where} outside every block`).not.toContain(mark);
  }

  // The tool ran (read-only, no card), and its output came back cut to the budget, saying so: a page
  // tool's output is untrusted, so its block is base64 of the result (never readable as prompt text).
  const second = promptOf(model.requests[1]!);
  const results = dataBlocks(second)
    .filter((b) => b.kind === 'untrusted-tool-result' || b.kind === 'result')
    .map((b) => (b.kind === 'result' ? b.text : Buffer.from(b.text.trim(), 'base64').toString('utf8')));
  const result = results.find((t) => t.includes(FENCE_OUTPUT.start));
  expect(result, 'the output reached the model, inside a result block').toBeDefined();
  expect(result).not.toContain(FENCE_OUTPUT.end);
  // The result is canonical JSON (keys sorted), clipped for the prompt: the cut is said before the text.
  expect(result).toContain('"output":{"shown_chars":1500,"text":"MARK-OUTPUT-START');
  expect(second).not.toContain(FENCE_OUTPUT.end);
  expect(outsideBlocks(second)).not.toContain(FENCE_OUTPUT.start);
});
