/** The widget tasks (issue 26): well-formed, unique, each on a page the lab serves, judged on what the server received. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_PAGES } from '../../../sites/lab/widgets/routes.ts';
import { WIDGET_CLASSES, WIDGET_TASKS, WidgetTask, answersFor, judge, taskSlug, withEpisode, type AnswerRecord } from '../../../sites/lab/widgets/tasks.ts';
import { WIDGET_KITS } from '../../../sites/lab/widgets/page.ts';
import { freePorts, startDemoSites, type RunningDemoSites } from '../../../sites/server.ts';

let sites: RunningDemoSites;
let lab: string;
beforeAll(async () => {
  sites = await startDemoSites({ ports: freePorts() });
  lab = sites.urls.lab;
});
afterAll(async () => {
  await sites?.stop();
});

describe('WIDGET_TASKS', () => {
  it('are about thirty or more, each valid against the schema, with unique ids', () => {
    expect(WIDGET_TASKS.length).toBeGreaterThanOrEqual(30);
    for (const task of WIDGET_TASKS) expect(WidgetTask.safeParse(task).success, task.id).toBe(true);
    expect(new Set(WIDGET_TASKS.map((t) => t.id)).size).toBe(WIDGET_TASKS.length);
  });

  it('cover every widget class and every kit', () => {
    expect(new Set(WIDGET_TASKS.map((t) => t.widget))).toEqual(new Set(WIDGET_CLASSES));
    expect(new Set(WIDGET_TASKS.map((t) => t.kit))).toEqual(new Set(WIDGET_KITS));
  });

  it('run on a widget page of the kit they say, and expect a non-empty JSON object', () => {
    const kits = new Map(WIDGET_PAGES.map((p) => [p.slug, p.kit]));
    for (const task of WIDGET_TASKS) {
      expect(kits.get(taskSlug(task)), task.id).toBe(task.kit);
      expect(typeof task.expected === 'object' && task.expected !== null && !Array.isArray(task.expected), task.id).toBe(true);
      expect(Object.keys(task.expected as object).length, task.id).toBeGreaterThan(0);
      expect(task.goal, task.id).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('rejects a malformed task', () => {
    const good = WIDGET_TASKS[0]!;
    expect(WidgetTask.safeParse({ ...good, kit: 'angular' }).success).toBe(false);
    expect(WidgetTask.safeParse({ ...good, path: 'https://example.test/widgets/x' }).success).toBe(false);
    expect(WidgetTask.safeParse({ ...good, extra: 1 }).success).toBe(false);
  });

  it.each(WIDGET_TASKS.map((t) => [t.id, t] as const))('%s: its page is served under an episode', async (_id, task) => {
    const res = await fetch(lab + withEpisode(task.path, `unit-${task.id}`), { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^<!doctype html>/i);
  });
});

describe('episodes', () => {
  it('add the episode to the task path, and refuse an id that could break the URL', () => {
    expect(withEpisode('/widgets/v-inbox', 'e-1')).toBe('/widgets/v-inbox?episode=e-1');
    expect(withEpisode('/widgets/jq-slider?start=40', 'run.2')).toBe('/widgets/jq-slider?start=40&episode=run.2');
    expect(() => withEpisode('/widgets/v-inbox', 'a&b=c')).toThrow();
  });

  const svg = WIDGET_TASKS.find((t) => t.id === 'v-svg-large-red')!;
  const record = (slug: string, answer: unknown, seq: number): AnswerRecord => ({ seq, at: '2026-12-01T00:00:00.000Z', episode: 'e', slug, answer: answer as AnswerRecord['answer'] });

  it('are judged by the first answer the task’s page sent, compared deeply', () => {
    expect(judge(svg, [])).toEqual({ solved: false, first: undefined });
    expect(judge(svg, [record('v-svg-shapes', { size: 'large', color: 'red', shape: 'circle' }, 1)]).solved).toBe(true);
    expect(judge(svg, [record('v-svg-shapes', { shape: 'circle', color: 'red', size: 'small' }, 1), record('v-svg-shapes', svg.expected, 2)]).solved).toBe(false);
    expect(judge(svg, [record('v-canvas', { hit: null }, 1), record('v-svg-shapes', svg.expected, 2)]).solved).toBe(true);
    expect(judge(svg, [record('v-svg-shapes', { ...(svg.expected as object), extra: true }, 1)]).solved).toBe(false);
  });

  it('are read back from the server with answersFor', async () => {
    await fetch(`${lab}/widgets/__reset`, { method: 'POST' });
    const post = (episode: string, answer: unknown) =>
      fetch(`${lab}/widgets/v-svg-shapes/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ episode, answer }) });
    expect((await post('unit-a', svg.expected)).status).toBe(200);
    expect((await post('unit-b', { shape: 'square' })).status).toBe(200);
    const answers = await answersFor(lab, 'unit-a');
    expect(answers.map((a) => [a.slug, a.answer])).toEqual([['v-svg-shapes', svg.expected]]);
    expect(judge(svg, answers).solved).toBe(true);
    expect(await answersFor(lab, 'unit-none')).toEqual([]);
  });
});
