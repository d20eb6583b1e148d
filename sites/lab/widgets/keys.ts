/**
 * Keyboard widgets: a search box that submits on Enter (no button, no form), a listbox moved with
 * the arrow keys and chosen with Enter, a dialog only Escape closes, and a keyboard shortcut.
 */
import { widgetDoc } from './doc.ts';
import type { WidgetPage } from './page.ts';

function search(): string {
  return widgetDoc({
    slug: 'v-search',
    title: 'Search',
    body: `<h1>Outdoor store</h1><input type="search" id="q" placeholder="Search products" aria-label="Search products" size="32"><p class="muted">Press Enter to search.</p>`,
    script: `document.getElementById('q').addEventListener('keydown',function(e){if(e.key==='Enter'){sendAnswer({query:e.target.value.trim()})}});`,
  });
}

const SIZES = ['Extra small', 'Small', 'Medium', 'Large', 'Extra large'];

function listbox(): string {
  return widgetDoc({
    slug: 'v-listbox',
    title: 'Size',
    css: '[role=listbox]{width:200px;border:1px solid #d0d7de;border-radius:6px;padding:4px 0;outline-offset:2px}[role=option]{padding:4px 10px}[role=option][aria-selected=true]{background:#0969da;color:#fff}',
    body: `<h1>Rain jacket</h1><p id="lbl">Size (use the arrow keys, then Enter)</p><div role="listbox" tabindex="0" aria-labelledby="lbl" id="lb">${SIZES.map((s, i) => `<div role="option" id="o${i}" aria-selected="${i === 0}">${s}</div>`).join('')}</div>`,
    script: `var lb=document.getElementById('lb'),opts=[].slice.call(lb.children),at=0;lb.setAttribute('aria-activedescendant','o0');
function move(i){at=Math.max(0,Math.min(opts.length-1,i));opts.forEach(function(o,j){o.setAttribute('aria-selected',String(j===at))});lb.setAttribute('aria-activedescendant',opts[at].id)}
lb.addEventListener('keydown',function(e){if(e.key==='ArrowDown'){e.preventDefault();move(at+1)}else if(e.key==='ArrowUp'){e.preventDefault();move(at-1)}else if(e.key==='Home'){move(0)}else if(e.key==='End'){move(opts.length-1)}else if(e.key==='Enter'){sendAnswer({size:opts[at].textContent})}});
opts.forEach(function(o,j){o.addEventListener('click',function(){lb.focus();move(j)})});`,
  });
}

function escapeDialog(): string {
  return widgetDoc({
    slug: 'v-escape-dialog',
    title: 'Article',
    css: '.veil{position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:50}.box{background:#fff;padding:20px;border-radius:8px;width:320px}',
    body: `<h1>Ten quiet beaches</h1><p>The coast south of the city hides a few.</p><button class="btn" type="button" id="more">Read more</button>
<div class="veil" id="veil"><div class="box" role="dialog" aria-modal="true" aria-labelledby="dt"><h2 id="dt">Join our newsletter</h2><p>One email a week. Press Escape to dismiss.</p><input type="email" placeholder="you@example.com" aria-label="Email"></div></div>`,
    script: `var dismissed='not dismissed';document.addEventListener('keydown',function(e){var v=document.getElementById('veil');if(e.key==='Escape'&&v){v.remove();dismissed='escape'}});
document.getElementById('more').addEventListener('click',function(){sendAnswer({action:'read-more',dialog:dismissed})});`,
  });
}

function shortcut(): string {
  return widgetDoc({
    slug: 'v-shortcut',
    title: 'Notes',
    body: `<h1>Notes</h1><p class="muted">Changes are saved with Ctrl+S.</p><div id="note" contenteditable="true" style="border:1px solid #d0d7de;border-radius:6px;padding:8px;min-height:60px">Buy oat milk</div>`,
    script: `document.addEventListener('keydown',function(e){if((e.ctrlKey||e.metaKey)&&e.key.toLowerCase()==='s'){e.preventDefault();sendAnswer({saved:document.getElementById('note').textContent.trim()})}});`,
  });
}

export const KEY_PAGES: readonly WidgetPage[] = [
  { slug: 'v-search', kit: 'vanilla', what: 'A search box submitted by Enter only', render: search },
  { slug: 'v-listbox', kit: 'vanilla', what: 'A listbox moved with arrow keys and chosen with Enter', render: listbox },
  { slug: 'v-escape-dialog', kit: 'vanilla', what: 'A modal only Escape dismisses, over the page’s button', render: escapeDialog },
  { slug: 'v-shortcut', kit: 'vanilla', what: 'A Ctrl+S keyboard shortcut on a contenteditable note', render: shortcut },
];
