/**
 * Native controls in plain forms that post to the server as forms do (no script): a date, a
 * range, a number, a colour, a file and a multiple select. The episode id rides in a hidden field.
 */
import { escapeHtml } from '../../http.ts';
import { widgetDoc } from './doc.ts';
import type { WidgetPage } from './page.ts';

function form(slug: string, title: string, fields: string, submit: string, enctype = ''): string {
  return `<h1>${escapeHtml(title)}</h1><form method="post" action="/widgets/${slug}/answer"${enctype}>
<input type="hidden" name="episode" value="">
${fields}
<button class="btn" type="submit">${escapeHtml(submit)}</button></form>`;
}

/** The hidden field gets the page URL's episode (so a reload keeps it, as a server-rendered value would). */
const EPISODE_SCRIPT = `document.querySelector('input[name=episode]').value=new URLSearchParams(location.search).get('episode')||'none';`;

function nativePage(slug: string, title: string, fields: string, submit: string, enctype = ''): () => string {
  return () => widgetDoc({ slug, title, body: form(slug, title, fields, submit, enctype), script: EPISODE_SCRIPT });
}

export const NATIVE_PAGES: readonly WidgetPage[] = [
  {
    slug: 'native-date',
    kit: 'native',
    what: '<input type=date> in a form posted the plain way',
    render: nativePage(
      'native-date',
      'Find flights',
      `<div class="field"><label for="dep">Departure</label><input type="date" id="dep" name="departure" min="2026-01-01" max="2028-12-31"></div>`,
      'Search flights',
    ),
  },
  {
    slug: 'native-range',
    kit: 'native',
    what: '<input type=range> 0–100 in steps of 5',
    render: nativePage(
      'native-range',
      'Display',
      `<div class="field"><label for="bri">Brightness</label><input type="range" id="bri" name="brightness" min="0" max="100" step="5" value="50"></div>`,
      'Apply',
    ),
  },
  {
    slug: 'native-number',
    kit: 'native',
    what: '<input type=number> 1–8',
    render: nativePage('native-number', 'Concert tickets', `<div class="field"><label for="n">Tickets</label><input type="number" id="n" name="tickets" min="1" max="8" value="1"></div>`, 'Buy'),
  },
  {
    slug: 'native-color',
    kit: 'native',
    what: '<input type=color>',
    render: nativePage('native-color', 'Theme', `<div class="field"><label for="c">Accent colour</label><input type="color" id="c" name="accent" value="#1f883d"></div>`, 'Save'),
  },
  {
    slug: 'native-file',
    kit: 'native',
    what: '<input type=file>: only the person may choose a file',
    render: () =>
      widgetDoc({
        slug: 'native-file',
        title: 'Attach',
        body: `<h1>Send a document</h1><form id="f"><div class="field"><label for="doc">Attachment</label><input type="file" id="doc" name="doc"></div><button class="btn" type="submit">Upload</button></form>`,
        // The file itself never leaves the page: what the server learns is that one was chosen.
        script: `document.getElementById('f').addEventListener('submit',function(e){e.preventDefault();var f=document.getElementById('doc').files;sendAnswer({files:f.length})});`,
      }),
  },
  {
    slug: 'native-select-multiple',
    kit: 'native',
    what: '<select multiple>: several options chosen at once',
    render: nativePage(
      'native-select-multiple',
      'Build a pizza',
      `<div class="field"><label for="top">Toppings</label><select id="top" name="toppings" multiple size="5"><option value="mushrooms">Mushrooms</option><option value="olives">Olives</option><option value="peppers">Peppers</option><option value="onions">Onions</option><option value="ham">Ham</option></select></div>`,
      'Order',
    ),
  },
];
