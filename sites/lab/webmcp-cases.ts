/**
 * `/webmcp/cases`: WebMCP the way public demo pages ship it, the three shapes the polyfill got
 * wrong before. `partner_prices` is registered with `exposedTo` (Chrome exposes it to a partner
 * origin too); `begin_survey` swaps itself for `answer_survey` by aborting its own
 * registration while it runs, and answers; `search_catalog` is a GET form with `toolautosubmit`
 * that navigates to its result page (`/webmcp/cases/results?q=…`), which answers nothing.
 */
import { html, sendHtml, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const CASES_SCRIPT = `(() => {
  'use strict';
  const mc = document.modelContext;
  if (!mc || typeof mc.registerTool !== 'function') return;
  const empty = { type: 'object', properties: {} };
  mc.registerTool({
    name: 'partner_prices',
    description: 'Lists today’s partner prices (also offered to the partner’s own site).',
    inputSchema: empty,
    annotations: { readOnlyHint: true },
    execute: async () => 'Partner prices: trail shoes 89 EUR, rain jacket 120 EUR.',
  }, { exposedTo: ['https://partner.example'] });
  const step = new AbortController();
  mc.registerTool({
    name: 'begin_survey',
    description: 'Begins the survey: the page moves to its first question.',
    inputSchema: empty,
    annotations: { readOnlyHint: true },
    execute: async () => {
      step.abort();
      document.getElementById('survey-step').textContent = 'Question 1 of 3';
      await mc.registerTool({ name: 'answer_survey', description: 'Answers the survey question.', inputSchema: empty, execute: async () => 'Answer saved.' });
      return 'Survey begun: answer the first question next.';
    },
  }, { signal: step.signal });
})();
`;

function casesPage(): string {
  return page({
    title: `WebMCP as pages ship it — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: ['/assets/webmcp-cases.js'],
    body: html`<section class="card"><h1>WebMCP as pages ship it</h1>
<p>Survey: <output id="survey-step">Not started</output></p>
<form id="search" toolname="search_catalog" tooldescription="Searches the catalog and shows the results page." toolautosubmit method="get" action="/webmcp/cases/results">
<label>Search the catalog <input name="q" required></label>
<button type="submit">Search</button>
</form></section>`,
  });
}

function resultsPage(query: string): string {
  return page({
    title: `Results for ${query} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    body: html`<section class="card"><h1>Results for ${query}</h1>
<ul><li>${query} — 3 matches</li></ul></section>`,
  });
}

export function mountWebMcpCases(router: Router): void {
  router.get('/webmcp/cases', (ctx) => sendHtml(ctx.res, 200, casesPage()));
  router.get('/webmcp/cases/results', (ctx) => sendHtml(ctx.res, 200, resultsPage(ctx.url.searchParams.get('q') ?? '')));
  router.get('/assets/webmcp-cases.js', (ctx) => sendScript(ctx.res, CASES_SCRIPT));
}
