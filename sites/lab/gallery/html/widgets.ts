import { LIB_BASE } from '../../widgets/assets.ts';
import { CITIES } from '../../widgets/jquery-ui.ts';
import { crumbs, htmlDoc } from './doc.ts';

/**
 * Issue 26's widget classes on pages written the way real sites are: a jQuery UI hotel search
 * (date picker, autocomplete, slider), native date and range inputs, clickable text that is no
 * link, covered controls, an SVG floor plan, and a ticket count changed in place.
 */

const JQUERY_UI = `<link rel="stylesheet" href="${LIB_BASE}/jquery-ui.css"><script src="${LIB_BASE}/jquery.js"></script><script src="${LIB_BASE}/jquery-ui.js"></script>`;

/** A hotel search with jQuery UI: Destination autocompletes, Check-in is a read-only date picker, the price a slider. */
export function jqueryUiSearchPage(): string {
  return htmlDoc({
    title: 'Find a hotel — Staywell',
    brand: 'Staywell',
    head: JQUERY_UI,
    css: '.srch{display:grid;grid-template-columns:1fr 1fr;gap:12px 20px;max-width:620px}.srch label{display:block;font-size:13px;color:#57606a;margin-bottom:3px}.srch input{font:inherit;padding:6px 8px;border:1px solid #d0d7de;border-radius:6px;width:100%}#price{margin:12px 6px}',
    body: `${crumbs('Home', 'Hotels')}
<div class="panel"><h1 style="font-size:24px;margin:0 0 12px">Find a hotel</h1><form class="srch" onsubmit="return false">
<div class="ui-widget"><label for="dest">Destination</label><input id="dest" autocomplete="off" placeholder="City"></div>
<div><label for="checkin">Check-in</label><input id="checkin" readonly placeholder="Pick a date"></div>
<div style="grid-column:1/3"><span class="muted">Price per night up to</span> <b id="amount">€120</b><div id="price"></div></div>
<div><button class="btn btn--primary" type="submit">Search hotels</button></div></form></div>`,
    script: `$(function(){$('#dest').autocomplete({source:${JSON.stringify(CITIES)},minLength:2});$('#checkin').datepicker({dateFormat:'d M yy',defaultDate:new Date(2026,10,1)});
$('#price').slider({min:40,max:400,step:10,value:120,slide:function(e,ui){$('#amount').text('€'+ui.value)},change:function(e,ui){$('#amount').text('€'+ui.value)}})});`,
  });
}

/** A flight search with native controls only: a date input and a budget range. */
export function nativeTripPage(): string {
  return htmlDoc({
    title: 'Plan a trip — Skylark Air',
    brand: 'Skylark Air',
    css: '.trip{display:flex;gap:24px;align-items:flex-end;flex-wrap:wrap}.trip label{display:block;font-size:13px;color:#57606a}.trip input[type=date]{font:inherit;padding:5px 8px}',
    body: `${crumbs('Flights', 'Plan a trip')}
<div class="panel"><h1 style="font-size:24px;margin:0 0 12px">Plan a trip</h1><form class="trip" onsubmit="return false">
<div><label for="dep">Departure</label><input type="date" id="dep" value="2027-01-15"></div>
<div><label for="budget">Budget</label><input type="range" id="budget" min="0" max="1000" step="50" value="200"> <output id="budget-out" for="budget">€200</output></div>
<button class="btn btn--primary" type="submit">Search flights</button></form></div>`,
    script: `var b=document.getElementById('budget'),o=document.getElementById('budget-out');b.addEventListener('input',function(){o.textContent='€'+b.value});`,
  });
}

/** A help centre whose article titles are spans and whose tabs are divs, beside a support inbox of clickable rows. */
export function clickableTextPage(): string {
  return htmlDoc({
    title: 'Help centre — Cyclewise',
    brand: 'Cyclewise',
    css: '.link{color:#0b5cad;cursor:pointer}.tabs{display:flex;gap:4px;margin-bottom:8px}.tab{padding:4px 12px;cursor:pointer;border-bottom:2px solid transparent}.tab.on{border-color:#fd8c73;font-weight:600}.mrow{padding:8px;border-bottom:1px solid #eaeef2;cursor:pointer}.mrow:hover{background:#f6f8fa}',
    body: `${crumbs('Support', 'Help centre')}
<div class="row"><div class="col panel"><h1 style="font-size:22px;margin:0 0 10px">Help centre</h1>
<div class="tabs"><div class="tab on">Guides</div><div class="tab">Videos</div></div>
<ul><li><span class="link">Repairing a bike chain</span></li><li><span class="link">Choosing winter tyres</span></li></ul></div>
<div class="col panel"><h2 style="font-size:18px;margin:0 0 8px">Your messages</h2>
<div class="mrow">Omar Haddad · Q3 budget draft</div><div class="mrow">Lena Fischer · Holiday photos</div></div></div>`,
    script: `document.querySelectorAll('.tab').forEach(function(t){t.addEventListener('click',function(){document.querySelectorAll('.tab').forEach(function(x){x.classList.remove('on')});t.classList.add('on')})});
document.querySelectorAll('.link,.mrow').forEach(function(s){s.addEventListener('click',function(){s.style.fontWeight='600'})});`,
  });
}

/** An editor whose buttons sit under a sticky bar, a badge, a glass overlay and a cookie banner; one is clipped away. */
export function coveredControlsPage(): string {
  return htmlDoc({
    title: 'Edit post — Quillpad',
    brand: 'Quillpad',
    css: `.bar{position:sticky;top:44px;z-index:10;height:56px;background:#24292f;color:#fff;display:flex;align-items:center;padding:0 16px}.gap{height:360px;color:#8c959f}.wrap{position:relative;display:inline-block;margin:14px 0}
.badge{position:absolute;left:-6px;top:-4px;width:66px;height:40px;background:#fd8c73;color:#fff;font-size:12px;border-radius:6px;display:flex;align-items:center;justify-content:center;z-index:2}
.glass{position:absolute;inset:-10px;background:rgba(255,255,255,.35);pointer-events:none;z-index:3}.clip{position:relative;height:40px;overflow:hidden;border:1px solid #eaeef2}.clip .btn{position:absolute;top:120px;left:10px}
.dock{position:fixed;left:0;right:0;bottom:20px;display:flex;justify-content:center;z-index:20}.cookie{position:fixed;left:0;right:0;bottom:0;height:110px;background:#1f2328;color:#fff;z-index:30;display:flex;align-items:center;gap:16px;padding:0 24px}
.cookie .x{margin-left:auto;background:none;border:1px solid #8c959f;color:#fff;border-radius:50%;width:30px;height:30px;cursor:pointer}.tall{height:900px}`,
    body: `<div class="bar">Editing “Autumn menu”</div><div class="gap">Draft text…</div>
<div><button class="btn" type="button" id="save">Save draft</button></div>
<div class="wrap"><span class="badge">NEW</span><button class="btn" type="button">Add to list</button></div>
<div class="wrap"><button class="btn" type="button">Preview</button><div class="glass"></div></div>
<div class="clip"><span class="muted">Danger zone</span><button class="btn btn--danger" type="button">Delete forever</button></div><div class="tall"></div>
<div class="dock"><button class="btn btn--primary" type="button">Publish</button></div>
<div class="cookie" id="cookie"><span>We use cookies to keep you signed in.</span><button class="x" type="button" aria-label="Close">✕</button></div>`,
    script: `var s=document.getElementById('save');window.scrollTo(0,s.getBoundingClientRect().top+window.scrollY-80);document.querySelector('.cookie .x').addEventListener('click',function(){document.getElementById('cookie').remove()});`,
  });
}

/** The shapes the floor plan draws, as the label lists them (colour names, relative size). */
export const FLOOR_PLAN = [
  { name: 'Meeting room Oak', kind: 'rect', fill: 'green', size: 'large', svg: '<rect x="10" y="10" width="200" height="120" fill="#2e8b3d"/>' },
  { name: 'Phone booth 1', kind: 'rect', fill: 'red', size: 'small', svg: '<rect x="230" y="10" width="40" height="40" fill="#d32f2f"/>' },
  { name: 'Desk 14', kind: 'circle', fill: 'blue', size: 'small', svg: '<circle cx="320" cy="40" r="18" fill="#1e63d6"/>' },
  { name: 'Lounge', kind: 'circle', fill: 'yellow', size: 'large', svg: '<circle cx="320" cy="130" r="55" fill="#f2c200"/>' },
] as const;

/** An office floor plan in SVG: rooms and desks are shapes with titles, booked by clicking them. */
export function svgFloorPlanPage(): string {
  return htmlDoc({
    title: 'Book a space — Deskhop',
    brand: 'Deskhop',
    css: 'svg g{cursor:pointer}svg g.booked{opacity:.5}',
    body: `${crumbs('Offices', 'Lisbon', 'Floor 2')}
<div class="panel"><h1 style="font-size:22px;margin:0 0 10px">Floor 2 — pick a space</h1>
<svg width="420" height="200" viewBox="0 0 420 200" style="border:1px solid #d8dee4;border-radius:6px;background:#fafbfc">${FLOOR_PLAN.map((s) => `<g><title>${s.name}</title>${s.svg}</g>`).join('')}</svg>
<p class="muted">Green: meeting rooms · red: phone booths · blue: desks · yellow: lounges</p></div>`,
    script: `document.querySelectorAll('svg g').forEach(function(g){g.addEventListener('click',function(){g.classList.toggle('booked')})});`,
  });
}

/** Concert tickets: the count sits in a sentence the page rewrites from its own − / + buttons. */
export function ticketsInPlacePage(): string {
  return htmlDoc({
    title: 'Jazz at the Harbour — Encore Tickets',
    brand: 'Encore Tickets',
    css: '.step{display:inline-flex;gap:8px;align-items:center;margin:10px 0}.step button{width:32px;height:32px;border-radius:50%;border:1px solid #d0d7de;background:#fff;font-size:18px;cursor:pointer}',
    body: `${crumbs('Concerts', 'Jazz at the Harbour')}
<div class="panel"><h1 style="font-size:24px;margin:0 0 6px">Jazz at the Harbour</h1><p class="muted">Friday 11 December 2026 · Doors 19:30 · €28.00 per ticket</p>
<div class="step"><button type="button" class="js-dec">−</button><button type="button" class="js-inc">+</button></div>
<p class="js-count">2 tickets selected</p><p><button class="btn btn--primary" type="button">Continue to seats</button></p></div>`,
    script: `(function(){var n=2,p=document.querySelector('.js-count');function show(){p.textContent=n+(n===1?' ticket':' tickets')+' selected'}
document.querySelector('.js-inc').addEventListener('click',function(){if(n<8){n++;show()}});document.querySelector('.js-dec').addEventListener('click',function(){if(n>1){n--;show()}})})();`,
  });
}
