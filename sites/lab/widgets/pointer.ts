/**
 * What needs the pointer: menus that open on hover (one by CSS `:hover`, one by JS
 * `mouseenter`), HTML5 drag and drop (`draggable=true`, drop zones), and a list sorted by
 * dragging a handle with pointer events.
 */
import { z } from 'zod';
import { widgetDoc } from './doc.ts';
import { pageQuery, type WidgetPage } from './page.ts';

function hoverMenus(): string {
  return widgetDoc({
    slug: 'v-hover-menu',
    title: 'Store',
    css: `.nav{display:flex;gap:4px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:0 6px}.top-item{position:relative;padding:8px 12px;cursor:default}
.sub{display:none;position:absolute;left:0;top:100%;background:#fff;border:1px solid #d0d7de;border-radius:6px;min-width:150px;z-index:5;padding:4px 0}.sub a{display:block;padding:5px 12px;color:#1f2328;text-decoration:none}.sub a:hover{background:#f6f8fa}
.css-hover:hover .sub{display:block}.js-open .sub{display:block}`,
    body: `<h1>Store</h1><nav class="nav"><div class="top-item css-hover">Products<div class="sub"><a href="#laptops">Laptops</a><a href="#phones">Phones</a><a href="#tablets">Tablets</a></div></div>
<div class="top-item js-hover" id="support">Support<div class="sub"><a href="#contact">Contact us</a><a href="#returns">Returns</a><a href="#warranty">Warranty</a></div></div></nav><div style="height:160px"></div>`,
    script: `var s=document.getElementById('support');s.addEventListener('mouseenter',function(){s.classList.add('js-open')});s.addEventListener('mouseleave',function(){s.classList.remove('js-open')});
document.querySelectorAll('.sub a').forEach(function(a){a.addEventListener('click',function(e){e.preventDefault();sendAnswer({menu:a.closest('.top-item').firstChild.textContent.trim(),item:a.textContent})})});`,
  });
}

function dragDrop(): string {
  const cards = ['Write tests', 'Fix login bug', 'Update docs'];
  return widgetDoc({
    slug: 'v-drag-drop',
    title: 'Board',
    css: '.board{display:flex;gap:12px}.col{flex:1;min-height:180px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px}.col.over{background:#ddf4ff}.col h2{font-size:14px;margin:0 0 6px}.tcard{background:#fff;border:1px solid #d0d7de;border-radius:4px;padding:6px;margin:4px 0;cursor:grab}',
    body: `<h1>Sprint board</h1><div class="board"><div class="col" data-zone="todo"><h2>To do</h2>${cards.map((c, i) => `<div class="tcard" draggable="true" id="c${i}">${c}</div>`).join('')}</div><div class="col" data-zone="doing"><h2>In progress</h2></div><div class="col" data-zone="done"><h2>Done</h2></div></div>`,
    script: `document.querySelectorAll('.tcard').forEach(function(c){c.addEventListener('dragstart',function(e){e.dataTransfer.setData('text/plain',c.id);e.dataTransfer.effectAllowed='move'})});
document.querySelectorAll('.col').forEach(function(z){z.addEventListener('dragover',function(e){e.preventDefault();z.classList.add('over')});z.addEventListener('dragleave',function(){z.classList.remove('over')});
z.addEventListener('drop',function(e){e.preventDefault();z.classList.remove('over');var c=document.getElementById(e.dataTransfer.getData('text/plain'));if(!c)return;z.appendChild(c);sendAnswer({card:c.textContent,zone:z.dataset.zone})})});`,
  });
}

const GROCERIES = ['Apples', 'Bread', 'Bananas', 'Cheese', 'Tomatoes'];

function pointerSort(q: Record<string, string>): string {
  const { order } = pageQuery(
    z.object({
      order: z
        .string()
        .regex(/^[0-4](,[0-4]){4}$/)
        .default('0,1,2,3,4'),
    }),
    q,
  );
  const items = order.split(',').map((i) => GROCERIES[Number(i)]!);
  return widgetDoc({
    slug: 'v-pointer-sort',
    title: 'Shopping list',
    css: '#sl{list-style:none;padding:0;width:240px;user-select:none}#sl li{display:flex;gap:8px;align-items:center;padding:7px 8px;margin:3px 0;border:1px solid #d0d7de;border-radius:4px;background:#fff}#sl li.lift{opacity:.6}.grip{cursor:grab;color:#8c959f;touch-action:none}',
    body: `<h1>Shopping list</h1><ul id="sl">${items.map((g) => `<li><span class="grip">⠿</span><span class="t">${g}</span></li>`).join('')}</ul><button class="btn" type="button" id="save">Save list</button>`,
    // Dragging a grip moves its row past the rows whose middle the pointer crosses.
    script: `var list=document.getElementById('sl'),drag=null;
list.addEventListener('pointerdown',function(e){var g=e.target.closest('.grip');if(!g)return;drag=g.parentElement;drag.classList.add('lift');g.setPointerCapture(e.pointerId);e.preventDefault()});
list.addEventListener('pointermove',function(e){if(!drag)return;var rows=[].slice.call(list.children).filter(function(r){return r!==drag});var before=rows.find(function(r){var b=r.getBoundingClientRect();return e.clientY<b.top+b.height/2});list.insertBefore(drag,before||null)});
list.addEventListener('pointerup',function(){if(drag){drag.classList.remove('lift');drag=null}});
document.getElementById('save').addEventListener('click',function(){sendAnswer({order:[].map.call(list.querySelectorAll('.t'),function(t){return t.textContent})})});`,
  });
}

export const POINTER_PAGES: readonly WidgetPage[] = [
  { slug: 'v-hover-menu', kit: 'vanilla', what: 'Menus opened on hover: CSS :hover and JS mouseenter', render: hoverMenus },
  { slug: 'v-drag-drop', kit: 'vanilla', what: 'HTML5 drag and drop: draggable cards, drop zones', render: dragDrop },
  { slug: 'v-pointer-sort', kit: 'vanilla', what: 'A list sorted by dragging a grip (pointer events)', render: pointerSort },
];
