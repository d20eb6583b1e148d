/**
 * Clickable things that are not buttons or links, written the way many sites write them: a
 * `<span>` with a click listener used as a link, `<div>`s used as tabs, collapsible section
 * headers, tree nodes, inbox rows that open a message, and an icon-only menu opener (an SVG, no
 * text, no label). None has a role, a tabindex or an href: only their listeners make them live.
 */
import { widgetDoc } from './doc.ts';
import type { WidgetPage } from './page.ts';

const ARTICLES = [
  ['chain', 'Repairing a bike chain'],
  ['tyres', 'Choosing winter tyres'],
  ['brakes', 'Bleeding hydraulic brakes'],
] as const;

function spanLink(): string {
  return widgetDoc({
    slug: 'v-span-link',
    title: 'Workshop notes',
    css: '.link{color:#0b5cad;cursor:pointer}.link:hover{text-decoration:underline}.art{display:none}',
    body: `<h1>Workshop notes</h1><ul>${ARTICLES.map(([id, t]) => `<li><span class="link" data-id="${id}">${t}</span> <span class="muted">· 4 min read</span></li>`).join('')}</ul>
<article class="art" id="art"><h2 id="art-title"></h2><p>Full article below.</p></article>`,
    script: `document.querySelectorAll('.link').forEach(function(s){s.addEventListener('click',function(){sendAnswer({opened:s.dataset.id});
var a=document.getElementById('art');document.getElementById('art-title').textContent=s.textContent;a.style.display='block'})});`,
  });
}

function divTabs(): string {
  return widgetDoc({
    slug: 'v-div-tabs',
    title: 'Trail Runner 3',
    css: '.tabs{display:flex;gap:2px;border-bottom:1px solid #d0d7de}.tab{padding:6px 14px;cursor:pointer;color:#57606a}.tab.on{border-bottom:2px solid #fd8c73;color:#1f2328;font-weight:600}.pane{display:none;padding:12px 0}.pane.on{display:block}',
    body: `<h1>Trail Runner 3</h1><div class="tabs"><div class="tab on" data-pane="desc">Description</div><div class="tab" data-pane="specs">Specs</div><div class="tab" data-pane="reviews">Reviews</div></div>
<div class="pane on" id="desc"><p>A light shoe for muddy trails.</p></div>
<div class="pane" id="specs"><p>Drop 6 mm · 280 g</p><button class="btn plain" type="button" data-act="size-guide">Size guide</button></div>
<div class="pane" id="reviews"><p>4.6 out of 5 (212 reviews)</p><button class="btn plain" type="button" data-act="write-review">Write a review</button></div>`,
    script: `document.querySelectorAll('.tab').forEach(function(t){t.addEventListener('click',function(){document.querySelectorAll('.tab,.pane').forEach(function(x){x.classList.remove('on')});t.classList.add('on');document.getElementById(t.dataset.pane).classList.add('on')})});
document.querySelectorAll('.pane button').forEach(function(b){b.addEventListener('click',function(){sendAnswer({action:b.dataset.act})})});`,
  });
}

function collapsible(): string {
  return widgetDoc({
    slug: 'v-collapsible',
    title: 'Kettle K2',
    css: '.sec-h{padding:8px 10px;background:#f6f8fa;border:1px solid #d0d7de;margin-top:6px;cursor:pointer;font-weight:600}.sec-h::after{content:" ▸"}.sec-h.open::after{content:" ▾"}.sec-b{display:none;padding:8px 10px}.sec-h.open+.sec-b{display:block}',
    body: `<h1>Kettle K2</h1><div class="sec-h">Features</div><div class="sec-b"><p>1.7 litres, keeps warm for 30 minutes.</p></div>
<div class="sec-h">Warranty</div><div class="sec-b"><p>Two years.</p><button class="btn plain" type="button" data-act="claim">Make a claim</button></div>
<div class="sec-h">Downloads</div><div class="sec-b"><button class="btn plain" type="button" data-act="manual">Download manual</button></div>`,
    script: `document.querySelectorAll('.sec-h').forEach(function(h){h.addEventListener('click',function(){h.classList.toggle('open')})});
document.querySelectorAll('.sec-b button').forEach(function(b){b.addEventListener('click',function(){sendAnswer({action:b.dataset.act})})});`,
  });
}

const TREE: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  Documents: { Invoices: ['invoice-2026-10.pdf', 'invoice-2026-11.pdf'], Contracts: ['lease.pdf'] },
  Photos: { Holiday: ['beach.jpg', 'harbour.jpg'] },
};

function tree(): string {
  const branch = (name: string, children: string): string => `<li><div class="node">${name}</div><ul class="kids">${children}</ul></li>`;
  const leaf = (path: string, name: string) => `<li><div class="node leaf" data-path="${path}">${name}</div></li>`;
  const html = Object.entries(TREE)
    .map(([top, subs]) =>
      branch(
        top,
        Object.entries(subs)
          .map(([sub, files]) => branch(sub, files.map((f) => leaf(`${top}/${sub}/${f}`, f)).join('')))
          .join(''),
      ),
    )
    .join('');
  return widgetDoc({
    slug: 'v-tree',
    title: 'Drive',
    css: '.tree,.kids{list-style:none;padding-left:18px;margin:0}.kids{display:none}.open>.kids{display:block}.node{cursor:pointer;padding:2px 4px}.node:not(.leaf)::before{content:"▸ "}.open>.node::before{content:"▾ "}.leaf::before{content:"📄 "}',
    body: `<h1>My drive</h1><ul class="tree">${html}</ul>`,
    script: `document.querySelectorAll('.node').forEach(function(n){n.addEventListener('click',function(){if(n.classList.contains('leaf'))sendAnswer({opened:n.dataset.path});else n.parentElement.classList.toggle('open')})});`,
  });
}

const INBOX = [
  ['m1', 'Dana Whitfield', 'Lunch on Friday?', 'Are you free around one? The new place on'],
  ['m2', 'Parcelly', 'Your parcel is on its way', 'Track your delivery with the link below'],
  ['m3', 'Omar Haddad', 'Q3 budget draft', 'I have attached the figures we talked'],
  ['m4', 'Lena Fischer', 'Holiday photos', 'Here are the pictures from the harbour'],
] as const;

function inbox(): string {
  return widgetDoc({
    slug: 'v-inbox',
    title: 'Inbox (4)',
    css: '.mrow{display:flex;gap:10px;padding:8px;border-bottom:1px solid #eaeef2;cursor:pointer}.mrow:hover{background:#f6f8fa}.from{width:120px;font-weight:600}.subj{flex:1}.snip{color:#57606a}.msg{display:none;border:1px solid #d0d7de;padding:10px;margin-top:10px}',
    body: `<h1>Inbox</h1><div class="list">${INBOX.map(([id, from, subj, snip]) => `<div class="mrow" data-id="${id}"><span class="from">${from}</span><span class="subj">${subj} <span class="snip">— ${snip}…</span></span></div>`).join('')}</div>
<div class="msg" id="msg"><h2 id="msg-subj"></h2><p id="msg-from"></p></div>`,
    script: `document.querySelectorAll('.mrow').forEach(function(r){r.addEventListener('click',function(){sendAnswer({opened:r.dataset.id});
document.getElementById('msg-subj').textContent=r.querySelector('.subj').firstChild.textContent;document.getElementById('msg-from').textContent='From '+r.querySelector('.from').textContent;document.getElementById('msg').style.display='block'})});`,
  });
}

const KEBAB = '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="5" r="2"/><circle cx="12" cy="12" r="2"/><circle cx="12" cy="19" r="2"/></svg>';

function iconMenu(): string {
  const rows = ['1041', '1042', '1043'];
  return widgetDoc({
    slug: 'v-icon-menu',
    title: 'Invoices',
    css: '.irow{display:flex;align-items:center;gap:12px;padding:8px;border-bottom:1px solid #eaeef2;position:relative}.irow .n{flex:1}.kebab{cursor:pointer;padding:4px;border-radius:4px;line-height:0}.kebab:hover{background:#eaeef2}.pop{display:none;position:absolute;right:8px;top:36px;background:#fff;border:1px solid #d0d7de;border-radius:6px;box-shadow:0 4px 12px rgba(0,0,0,.12);z-index:5}.pop.open{display:block}.mi{padding:6px 16px;cursor:pointer}.mi:hover{background:#f6f8fa}',
    body: `<h1>Invoices</h1>${rows
      .map(
        (n) =>
          `<div class="irow" data-id="inv-${n}"><span class="n">Invoice ${n}</span><span class="muted">€120.00</span><div class="kebab">${KEBAB}</div><div class="pop"><div class="mi" data-act="rename">Rename</div><div class="mi" data-act="duplicate">Duplicate</div><div class="mi" data-act="delete">Delete</div></div></div>`,
      )
      .join('')}`,
    script: `document.querySelectorAll('.kebab').forEach(function(k){k.addEventListener('click',function(e){e.stopPropagation();var p=k.nextElementSibling;var was=p.classList.contains('open');document.querySelectorAll('.pop').forEach(function(x){x.classList.remove('open')});if(!was)p.classList.add('open')})});
document.querySelectorAll('.mi').forEach(function(m){m.addEventListener('click',function(){sendAnswer({invoice:m.closest('.irow').dataset.id,action:m.dataset.act});m.parentElement.classList.remove('open')})});
document.addEventListener('click',function(){document.querySelectorAll('.pop').forEach(function(x){x.classList.remove('open')})});`,
  });
}

export const VANILLA_CLICK_PAGES: readonly WidgetPage[] = [
  { slug: 'v-span-link', kit: 'vanilla', what: '<span>s with click listeners used as links', render: spanLink },
  { slug: 'v-div-tabs', kit: 'vanilla', what: '<div>s used as tabs, no roles', render: divTabs },
  { slug: 'v-collapsible', kit: 'vanilla', what: 'Collapsible section headers (<div> with a click listener)', render: collapsible },
  { slug: 'v-tree', kit: 'vanilla', what: 'A file tree of <div> nodes that expand on click', render: tree },
  { slug: 'v-inbox', kit: 'vanilla', what: 'An inbox whose rows open a message on click', render: inbox },
  { slug: 'v-icon-menu', kit: 'vanilla', what: 'Icon-only menu openers (an SVG, no text, no label) per row', render: iconMenu },
];
