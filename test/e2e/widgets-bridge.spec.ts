import { answersFor, judge } from '../../sites/lab/widgets/tasks.ts';
import { expect, test } from '../harness/fixtures.ts';
import { runTask, stewardSide, widgetTask } from '../harness/widget-agent.ts';

/**
 * Widget tasks done by an MCP client through the real bridge, the way the widget bench does them:
 * the scripted agent (sites/model/widget-agent/) reads only steward_observe's text, acts only
 * through steward_execute with the refs it read, and the person approves each card Steward holds.
 * The lab's server says what was done. At least one task per widget class of issue 26 (controls
 * that are not semantic HTML, covered controls, component-library widgets, the primitives, SVG),
 * besides the native inputs and jQuery UI / MUI tabs, trees and dialogs; `npm run bench -- --only
 * widgets` names what each of the others still lacks.
 */

const TASKS: ReadonlyArray<{ id: string; what: string }> = [
  { id: 'v-span-link', what: 'clickable <span> used as a link' },
  { id: 'v-inbox', what: 'inbox row that is a clickable <div>' },
  { id: 'v-icon-menu', what: 'icon-only menu opener without a name' },
  { id: 'v-covered-sticky', what: 'button half under a sticky header' },
  { id: 'v-covered-banner', what: 'button under a cookie banner, closed first' },
  { id: 'jq-datepicker', what: 'jQuery UI date picker: Next and a day cell' },
  { id: 'jq-autocomplete', what: 'jQuery UI autocomplete suggestions after typing' },
  { id: 'mui-autocomplete', what: 'MUI autocomplete' },
  { id: 'jq-spinner', what: 'jQuery UI spinner' },
  { id: 'mui-slider', what: 'MUI slider moved with keys' },
  { id: 'native-range', what: 'native range moved with keys' },
  { id: 'jq-menu', what: 'jQuery UI menu: a submenu opened by hover after its delay' },
  { id: 'v-hover-js', what: 'menu opened by hovering (a mouseenter listener)' },
  { id: 'jq-sortable', what: 'jQuery UI sortable: drag to the top' },
  { id: 'v-drag-drop', what: 'HTML5 drag and drop onto a column' },
  { id: 'jq-draggable', what: 'jQuery UI draggable onto a droppable (known by its class)' },
  { id: 'v-pointer-sort', what: 'a row dropped onto a row sorted by its grip' },
  { id: 'jq-checkboxradio', what: 'check a radio and a checkbox' },
  { id: 'v-search', what: 'press Enter in a search field' },
  { id: 'v-listbox', what: 'arrow keys and Enter in a listbox' },
  { id: 'v-svg-large-red', what: 'SVG shape by colour and size' },
  { id: 'jq-tabs', what: 'jQuery UI tabs' },
  { id: 'jq-dialog', what: 'jQuery UI dialog closed with Escape' },
  { id: 'mui-tree', what: 'MUI tree view' },
  { id: 'native-date', what: 'native date input' },
  { id: 'native-color', what: 'typed into a colour input' },
  { id: 'native-number', what: 'a purchase, with payment granted when pairing' },
  { id: 'v-quantity', what: 'quantity stepper' },
];

test.describe('widget tasks through the MCP bridge', () => {
  let side: Awaited<ReturnType<typeof stewardSide>>;
  const runId = `e2e${Date.now().toString(36)}`;

  test.beforeAll(async ({ sites }) => {
    test.setTimeout(90_000);
    side = await stewardSide(sites.urls.lab);
  });
  test.afterAll(async () => {
    await side?.close();
  });

  for (const { id, what } of TASKS) {
    const task = widgetTask(id);
    test(`${id} (${what}): ${task.goal}`, async ({ sites }) => {
      test.setTimeout(120_000);
      const outcome = await runTask(side, 'steward', task, sites.urls.lab, runId);
      expect(outcome.run.reason, 'why the agent stopped').toBeUndefined();
      expect(outcome.first, 'what the lab received first').toEqual(task.expected);
      expect(outcome.solved).toBe(true);
      // Every look the agent read was Steward's framed page text, never anything else.
      for (const look of outcome.run.looks) expect(look).toMatch(/<data>[\s\S]*<\/data>/);
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
