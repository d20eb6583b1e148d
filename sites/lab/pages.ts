/**
 * The lab's purpose-built hard pages. Each one isolates something an observer gets wrong: shadow
 * roots (open and closed), iframes (same- and cross-origin), elements that exist but cannot be
 * seen or hit, content that lives only in pixels, a hostile page, and very large tables.
 */
import { html, jsonLd, raw, type SafeHtml } from '../http.ts';
import { errorPage, page } from '../ui.ts';
import { loadGalleryLabels } from './gallery/label.ts';
import { gridBody } from './grid.ts';

export const LAB = { brand: 'Steward Lab', accent: '#8a4b0f' } as const;

const LAB_PAGES = [
  ['/shadow', 'Shadow DOM', 'Buttons inside open and closed shadow roots, nested and slotted'],
  ['/frames', 'Frames', 'A same-origin iframe, a srcdoc iframe, a hidden iframe and a cross-origin iframe'],
  ['/visibility', 'Visibility', 'Hidden, covered, offscreen and zero-size buttons next to a visible one'],
  ['/canvas', 'Canvas', 'Content that exists only as pixels, a labelled chart and a tainted canvas'],
  ['/unpainted', 'Unpainted page', 'Text and a button in the DOM, painted white on white: the pixels show nothing'],
  ['/hostile', 'Hostile page', 'Scripts that throw everywhere, patch DOM prototypes and clobber the document'],
  ['/webmcp/stalls', 'Stalling tool', 'A WebMCP tool that never answers'],
  ['/webmcp/same-name', 'Same-named tool', 'A WebMCP tool named like one of the clinic’s, on another site'],
  ['/webmcp/continue', 'Checkout over three pages', 'One WebMCP tool call continued across documents (continuation tokens, resumeTool)'],
  ['/hostile-tools', 'Hostile tools', 'WebMCP tools whose input schemas carry catastrophic regular expressions'],
  ['/grid?n=1600', 'Grid (1.6k)', 'An admin table of about 1,600 elements'],
  ['/grid?n=16000', 'Grid (16k)', 'An admin table of about 16,000 elements'],
  ['/grid?n=80000', 'Grid (80k)', 'An admin table of about 80,000 elements'],
  ['/widgets', 'Widget lab', 'Small pages, one widget each (jQuery UI, React + MUI, native, non-semantic controls, SVG, canvas), each reporting what the person did'],
] as const;

const LAB_CSS = `
[hidden]{display:none!important}
.stage{position:relative;border:1px dashed #c3c9d1;border-radius:8px;padding:16px;margin-bottom:16px}
.overlay{position:absolute;inset:0;background:rgba(29,35,43,.85);color:#fff;display:flex;align-items:center;justify-content:center;border-radius:8px}
.zero{width:0;height:0;padding:0;border:0;overflow:hidden}
.far-away{position:absolute;left:-10000px;top:0}
.below-fold{margin-top:1600px}
iframe{border:1px solid #dde1e6;border-radius:8px;width:100%;height:140px;background:#fff}
canvas{border:1px solid #dde1e6;border-radius:8px;background:#fcfcfd;display:block;margin-bottom:12px}
`;

function nav(): SafeHtml {
  return html`<nav aria-label="Main"><a href="/">All pages</a></nav>`;
}

function shell(title: string, body: SafeHtml, scripts: string[] = [], head?: SafeHtml): string {
  return page({
    title: `${title} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    nav: nav(),
    css: LAB_CSS,
    scripts,
    ...(head ? { head } : {}),
    body,
  });
}

const KIT_NAMES = { 'react-mui': 'React + MUI', 'web-components': 'Web components', html: 'Server HTML' } as const;

export function indexPage(): string {
  const items = LAB_PAGES.map(([href, name, what]) => html`<li><a href="${href}">${name}</a> — <span class="muted">${what}</span></li>`);
  // The labelled gallery (issue 14), listed from its label files so a new page shows up here as soon as it is labelled.
  const gallery = loadGalleryLabels().map((l) => html`<li><a href="${l.path}">${l.slug}</a> <span class="muted">(${KIT_NAMES[l.kit]})</span> — ${l.what}</li>`);
  return shell(
    'Hard pages',
    html`<section class="card"><h1>Hard pages for observers</h1><ul id="lab-pages">${items}</ul></section>
<section class="card"><h2>Gallery</h2><p class="muted">Pages written the way real sites are, each labelled with what a truthful observer reports there.</p><ul id="gallery-pages">${gallery}</ul></section>`,
  );
}

/**
 * Declarative shadow DOM needs no script, so the open and closed roots exist before any content
 * script runs; `/assets/shadow.js` adds an imperatively attached closed root and a nested one.
 */
export function shadowPage(): string {
  return shell(
    'Shadow DOM',
    html`<section class="card">
<h1>Shadow DOM</h1>
<p class="muted">Each card below keeps its controls inside a shadow root.</p>
<div id="open-host"><template shadowrootmode="open">
  <style>button{font:inherit;padding:6px 12px}</style>
  <p>Open shadow root</p>
  <button type="button" id="open-button">Open shadow action</button>
  <label>Open shadow note <input type="text" id="open-input" value="hello"></label>
</template></div>
<div id="closed-host"><template shadowrootmode="closed">
  <p>Closed shadow root</p>
  <button type="button" id="closed-button">Closed shadow action</button>
  <slot></slot>
</template><button type="button" id="slotted-button">Slotted light action</button></div>
<lab-widget id="scripted-host"></lab-widget>
</section>`,
    ['/assets/shadow.js'],
  );
}

export function framesPage(crossOriginUrl: string): string {
  const srcdoc = '<!doctype html><title>srcdoc</title><button type="button" id="srcdoc-button">Srcdoc frame action</button>';
  return shell(
    'Frames',
    html`<section class="card">
<h1>Frames</h1>
<h2>Same-origin frame</h2>
<iframe id="same-origin-frame" src="/frames/inner" title="Same-origin frame"></iframe>
<h2>Srcdoc frame</h2>
<iframe id="srcdoc-frame" srcdoc="${srcdoc}" title="Srcdoc frame"></iframe>
<h2>Hidden frame</h2>
<iframe id="hidden-frame" src="/frames/inner?hidden=1" title="Hidden frame" style="display:none"></iframe>
<h2>Cross-origin frame</h2>
<iframe id="cross-origin-frame" src="${crossOriginUrl}" title="Cross-origin frame"></iframe>
<button type="button" id="top-button">Top document action</button>
</section>`,
  );
}

export function innerFramePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inner frame</title><link rel="icon" href="data:,"></head>
<body style="font:14px system-ui;margin:8px">
<p>Inside the frame</p>
<button type="button" id="inner-button">Inner frame action</button>
<label for="inner-input">Frame note</label> <input id="inner-input" type="text" value="">
</body></html>
`;
}

export function visibilityPage(): string {
  return shell(
    'Visibility',
    html`<section class="card">
<h1>Visibility</h1>
<div class="stage" id="visible-stage"><button type="button" id="visible-button">Visible action</button></div>
<div class="stage"><button type="button" id="display-none-button" style="display:none">Display none action</button>
  <button type="button" id="visibility-hidden-button" style="visibility:hidden">Visibility hidden action</button>
  <button type="button" id="hidden-attribute-button" hidden>Hidden attribute action</button>
  <div aria-hidden="true"><button type="button" id="aria-hidden-button" tabindex="-1">Aria hidden action</button></div>
  <div inert><button type="button" id="inert-button">Inert action</button></div>
  <details id="closed-details"><summary>More options</summary><button type="button" id="details-button">Inside closed details action</button></details>
</div>
<div class="stage" id="covered-stage">
  <button type="button" id="covered-button">Covered action</button>
  <div class="overlay" id="overlay">Please wait…</div>
</div>
<div class="stage"><button type="button" id="zero-size-button" class="zero">Zero size action</button>
  <button type="button" id="offscreen-button" class="far-away">Offscreen action</button>
  <button type="button" id="disabled-button" disabled>Disabled action</button>
</div>
<div class="below-fold"><button type="button" id="below-fold-button">Below the fold action</button></div>
</section>`,
  );
}

export function canvasPage(taintingImageUrl: string): string {
  return shell(
    'Canvas',
    html`<section class="card">
<h1>Account balance</h1>
<p class="muted">The balance below is drawn on a canvas; it appears nowhere else on the page.</p>
<canvas id="balance-canvas" width="360" height="120"></canvas>
<canvas id="chart-canvas" width="360" height="120" aria-label="Monthly sales chart: rising from 12 to 31 units"></canvas>
<canvas id="tainted-canvas" width="120" height="60" data-src="${taintingImageUrl}"></canvas>
<button type="button" id="refresh-balance">Refresh balance</button>
</section>`,
    ['/assets/canvas.js'],
  );
}

/**
 * The hostile page fights the observer from both worlds: its scripts patch DOM and JS prototypes
 * (main world) and throw from every callback, and its markup clobbers `document` and form
 * properties by name, nests deeply, carries a huge name, a labelledby cycle and broken JSON-LD,
 * and names tags and microdata properties after Object's own (`constructor`, `__proto__`).
 */
/** WebMCP tools with schemas that would freeze a naive validator, next to one ordinary tool. */
export function hostileToolsPage(): string {
  return shell(
    'Hostile tools',
    html`<section class="card">
<h1>Hostile tools</h1>
<p class="muted">This page registers WebMCP tools whose input schemas use catastrophic regular expressions
(<code>^(a+)+$</code> and friends), and one ordinary tool, <code>echo_code</code>.</p>
<p role="status" id="tools-status">Registering tools…</p>
</section>`,
    ['/assets/hostile-tools.js'],
  );
}

export function hostilePage(): string {
  const deep = '<div>'.repeat(1500) + '<button type="button" id="deep-button">Deep action</button>' + '</div>'.repeat(1500);
  const hugeLabel = 'Huge '.repeat(40_000);
  return shell(
    'Hostile page',
    html`<section class="card">
<h1>Hostile page</h1>
<p role="status" id="hostile-status">Scripts on this page throw and patch prototypes.</p>
<img name="createTreeWalker" alt=""><img name="querySelectorAll" alt=""><img name="elementFromPoint" alt="">
<img name="getElementById" alt=""><form name="title"></form><img name="documentElement" alt="">
<form id="clobbered-form" method="post" action="/hostile/submit">
  <input name="action" aria-label="Action field"><input name="method" aria-label="Method field">
  <input name="elements" aria-label="Elements field"><input name="getAttribute" aria-label="Get attribute field">
  <button type="submit" id="clobbered-submit">Send clobbered form</button>
</form>
<button type="button" id="cycle-a" aria-labelledby="cycle-b">A</button><span id="cycle-b" aria-labelledby="cycle-a">B</span>
<button type="button" id="huge-name" aria-label="${hugeLabel}">x</button>
<button type="button" id="safe-button">Still observable</button>
<constructor id="constructor-tag">A tag named constructor</constructor>
<div itemscope itemtype="https://schema.org/Thing" id="prototype-props"><span itemprop="constructor">Made by hand</span><span itemprop="__proto__">Not a prototype</span><span itemprop="toString">Plain words</span></div>
${raw(deep)}
</section>`,
    ['/assets/hostile.js'],
    raw(
      '<script type="application/ld+json">{"@type": "Order", broken</script>' +
        '<script type="application/ld+json">' +
        JSON.stringify({ '@type': 'Dataset', padding: 'x'.repeat(300_000) }) +
        '</script>',
    ),
  );
}

export function gridPage(n: number): string {
  const { body, rows } = gridBody(n);
  return shell(`Team members (${rows} rows)`, raw(body), [], jsonLd({ '@context': 'https://schema.org', '@type': 'Dataset', name: 'Team members', size: rows }));
}

export function labErrorPage(status: number, code: string, message: string): string {
  return errorPage(LAB, status, code, message);
}

/**
 * A page whose DOM is full (a heading, an amount, a button) while its pixels are one flat colour:
 * every colour is white on white. Only a screenshot can tell that the person sees nothing.
 */
export function unpaintedPage(): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<title>Invoice INV-7</title>
<style>
  html, body { margin: 0; min-height: 100vh; background: #fff; }
  * { color: #fff !important; background: #fff !important; border: 0 !important; outline: none !important; box-shadow: none !important; text-shadow: none !important; appearance: none; caret-color: transparent; }
</style>
</head>
<body>
<main>
<h1>Invoice INV-7</h1>
<p>Total due: $120.00</p>
<button type="button" id="pay">Pay invoice</button>
</main>
</body>
</html>`}`;
}

/** A page whose WebMCP tool never answers: every call into a page needs a deadline. */
export function stallingToolPage(): string {
  return shell(
    'Stalling tool',
    html`<section class="card"><h1>A tool that never answers</h1>
<p id="webmcp-status">The tool <code>generate_report</code> accepts a call and never resolves it.</p>
<p>Calls received: <output id="stall-calls">0</output></p></section>`,
    ['/assets/webmcp-lab.js'],
  );
}

/** Another site's page with a tool named like the clinic's `list_doctors`: it must never run an agent's call meant for the clinic. */
export function sameNameToolPage(): string {
  return shell(
    'Same-named tool',
    html`<section class="card"><h1>Not the clinic</h1>
<p id="webmcp-status">This page offers a tool called <code>list_doctors</code> too.</p>
<p>Calls received: <output id="same-name-calls">0</output></p></section>`,
    ['/assets/webmcp-lab.js'],
  );
}
