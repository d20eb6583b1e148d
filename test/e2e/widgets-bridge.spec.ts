import { answersFor, judge } from '../../sites/lab/widgets/tasks.ts';
import { expect, test } from './fixtures.ts';
import { runTask, stewardSide, widgetTask } from './widget-agent.ts';

/**
 * Widget tasks done by an MCP client through the real bridge, the way the widget bench does them:
 * the scripted agent (sites/model/widget-agent/) reads only steward_observe's text, acts only
 * through steward_execute with the refs it read, and the person approves each card Steward holds.
 * The lab's server says what was done. These are the widget classes Steward's view covers today
 * (native inputs, jQuery UI and MUI tabs, menus, checkboxes and sliders, keys); the rest join as
 * the page-side capture lands (`npm run bench -- --only widgets` names what each still lacks).
 */

const PASSING_TODAY = [
  'jq-tabs',
  'jq-dialog',
  'jq-menu',
  'jq-checkboxradio',
  // Dropped above another item (dom.drag at: before), onto a jQuery UI droppable (its class), onto a row sorted by its grip.
  'jq-sortable',
  'jq-draggable',
  'v-pointer-sort',
  'mui-slider',
  'mui-tree',
  'native-date',
  'native-range',
  // Typed into a colour input; a purchase, with payment granted when pairing.
  'native-color',
  'native-number',
  'v-listbox',
  'v-search',
  'v-quantity',
];

test.describe.serial('widget tasks through the MCP bridge', () => {
  let side: Awaited<ReturnType<typeof stewardSide>>;
  const runId = `e2e${Date.now().toString(36)}`;

  test.beforeAll(async ({ sites }) => {
    test.setTimeout(90_000);
    side = await stewardSide(sites.urls.lab);
  });
  test.afterAll(async () => {
    await side?.close();
  });

  for (const id of PASSING_TODAY) {
    const task = widgetTask(id);
    test(`${id}: ${task.goal}`, async ({ sites }) => {
      test.setTimeout(60_000);
      const outcome = await runTask(side, 'steward', task, sites.urls.lab, runId);
      expect(outcome.run.reason, 'why the agent stopped').toBeUndefined();
      expect(outcome.first, 'what the lab received first').toEqual(task.expected);
      expect(outcome.solved).toBe(true);
      // Every look the agent read was Steward's framed page text, never anything else.
      for (const look of outcome.run.looks) expect(look).toMatch(/<untrusted_page_content>[\s\S]*<\/untrusted_page_content>/);
    });
  }

  test('a file is the person’s to choose: the upload is refused by name and nothing reaches the lab', async ({ sites }) => {
    const task = widgetTask('native-file');
    const outcome = await runTask(side, 'steward', task, sites.urls.lab, runId);
    expect(outcome.solved).toBe(false);
    expect(outcome.run.reason).toMatch(/^upload "Attachment": FILE_CHOICE_REQUIRED: .*only the person may choose a file/);
    expect(outcome.approvals).toBe(0);
    expect(judge(task, await answersFor(sites.urls.lab, outcome.episode)).first).toBeUndefined();
  });
});
