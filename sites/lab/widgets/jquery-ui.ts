/**
 * jQuery UI 1.14 widgets as sites use them, with the default theme: a date picker on a read-only
 * field (Prev/Next are `<a>` without href), an autocomplete, a slider (its handle a focusable
 * `<span>` without a role), a spinner, a menu whose submenus open on hover, a selectmenu, an
 * accordion, tabs, a modal dialog closed with Escape, a sortable list, draggable cards onto a
 * droppable bin, and checkboxradio buttons.
 */
import { z } from 'zod';
import { widgetDoc, js } from './doc.ts';
import { pageQuery, type WidgetPage } from './page.ts';

const doc = (slug: string, title: string, body: string, script: string, css = '') => widgetDoc({ slug, title, body, script: `$(function(){${script}});`, css, jqueryUi: true });

export const CITIES = [
  'Lisbon, Portugal',
  'Lille, France',
  'Linz, Austria',
  'Liverpool, United Kingdom',
  'Lima, Peru',
  'Ljubljana, Slovenia',
  'Leipzig, Germany',
  'Lyon, France',
  'Madrid, Spain',
  'Malmö, Sweden',
];

function datepicker(q: Record<string, string>): string {
  const { month } = pageQuery(
    z.object({
      month: z
        .string()
        .regex(/^\d{4}-\d{2}$/)
        .default('2026-11'),
    }),
    q,
  );
  return doc(
    'jq-datepicker',
    'Book a table',
    `<h1>Book a table</h1><form id="f"><div class="field"><label for="when">Date</label><input id="when" name="when" readonly placeholder="Pick a date"></div>
<button class="btn" type="submit">Submit</button></form>`,
    `$('#when').datepicker({dateFormat:'yy-mm-dd',defaultDate:${js(`${month}-01`)}});
$('#f').on('submit',function(e){e.preventDefault();sendAnswer({date:$('#when').val()})});`,
  );
}

function autocomplete(): string {
  return doc(
    'jq-autocomplete',
    'Where to?',
    `<h1>Where to?</h1><form id="f"><div class="field ui-widget"><label for="city">City</label><input id="city" name="city" autocomplete="off"></div>
<button class="btn" type="submit">Submit</button></form>`,
    `$('#city').autocomplete({source:${js(CITIES)},minLength:2,delay:150});
$('#f').on('submit',function(e){e.preventDefault();sendAnswer({city:$('#city').val()})});`,
  );
}

function slider(q: Record<string, string>): string {
  const { start } = pageQuery(z.object({ start: z.coerce.number().int().min(0).max(200).default(40) }), q);
  return doc(
    'jq-slider',
    'Filter hotels',
    `<h1>Filter hotels</h1><p>Maximum price per night: <b id="amount">€${start}</b></p><div id="price" style="margin:16px 8px 20px"></div>
<button class="btn" type="button" id="apply">Apply</button>`,
    `$('#price').slider({min:0,max:200,step:10,value:${start},slide:function(e,ui){$('#amount').text('€'+ui.value)},change:function(e,ui){$('#amount').text('€'+ui.value)}});
$('#apply').on('click',function(){sendAnswer({max_price:$('#price').slider('value')})});`,
  );
}

function spinner(): string {
  return doc(
    'jq-spinner',
    'Guests',
    `<h1>Reserve a cabin</h1><div class="field"><label for="guests">Guests</label><input id="guests" name="guests" value="2" size="3"></div>
<button class="btn" type="button" id="book">Book</button>`,
    `$('#guests').spinner({min:1,max:8});$('#book').on('click',function(){sendAnswer({guests:Number($('#guests').spinner('value'))})});`,
  );
}

function menu(): string {
  return doc(
    'jq-menu',
    'Account',
    `<h1>Your account</h1><ul id="menu" style="width:180px">
<li><div>Orders</div></li>
<li><div>Settings</div><ul style="width:160px"><li><div>Profile</div></li><li><div>Privacy</div></li><li><div>Notifications</div></li></ul></li>
<li><div>Payments</div><ul style="width:160px"><li><div>Cards</div></li><li><div>Invoices</div></li></ul></li>
<li><div>Sign out</div></li></ul>`,
    `$('#menu').menu({select:function(e,ui){if(ui.item.children('ul').length)return;sendAnswer({item:ui.item.children('div').first().text()})}});`,
  );
}

function selectmenu(): string {
  return doc(
    'jq-selectmenu',
    'Shipping',
    `<h1>Shipping</h1><form id="f"><div class="field"><label for="speed">Shipping speed</label>
<select id="speed" name="speed"><option value="standard">Standard (4–6 days)</option><option value="express">Express (1–2 days)</option><option value="pickup">Pick up in store</option></select></div>
<button class="btn" type="submit">Continue</button></form>`,
    `$('#speed').selectmenu({width:220});$('#f').on('submit',function(e){e.preventDefault();sendAnswer({speed:$('#speed').val()})});`,
  );
}

function accordion(): string {
  return doc(
    'jq-accordion',
    'Help centre',
    `<h1>Help centre</h1><div id="faq">
<h3>Delivery</h3><div><p>Orders ship within two working days.</p><button class="btn plain" type="button" data-act="track">Track a parcel</button></div>
<h3>Returns</h3><div><p>You have 30 days to send an item back.</p><button class="btn plain" type="button" data-act="return">Start a return</button></div>
<h3>Payments</h3><div><p>We take cards and bank transfers.</p><button class="btn plain" type="button" data-act="cards">Manage cards</button></div></div>`,
    `$('#faq').accordion({heightStyle:'content'});$('#faq').on('click','button',function(){sendAnswer({action:$(this).data('act')})});`,
  );
}

function tabs(): string {
  return doc(
    'jq-tabs',
    'Order settings',
    `<h1>Order settings</h1><div id="tabs"><ul><li><a href="#t-items">Items</a></li><li><a href="#t-shipping">Shipping</a></li><li><a href="#t-payment">Payment</a></li></ul>
<div id="t-items"><p>2 items in this order.</p><button class="btn plain" type="button" data-act="add-item">Add an item</button></div>
<div id="t-shipping"><p>Home delivery to 12 Elm St.</p><button class="btn plain" type="button" data-act="pickup">Use a pickup point</button></div>
<div id="t-payment"><p>Visa ending 4242.</p><button class="btn plain" type="button" data-act="change-card">Change card</button></div></div>`,
    `$('#tabs').tabs();$('#tabs').on('click','button',function(){sendAnswer({action:$(this).data('act')})});`,
  );
}

function dialog(): string {
  return doc(
    'jq-dialog',
    'Checkout',
    `<h1>Checkout</h1><p><button class="btn plain" type="button" id="terms">Review terms</button> <button class="btn" type="button" id="go">Continue</button></p>
<div id="dlg" title="Terms of sale"><p>By continuing you agree to our terms of sale.</p></div>`,
    `var closedBy='not opened';
$('#dlg').dialog({autoOpen:false,modal:true,closeOnEscape:true,width:360,buttons:[{text:'Accept',click:function(){closedBy='accept';$(this).dialog('close')}}],
open:function(){closedBy='still open'},close:function(e){if(e.originalEvent&&e.originalEvent.type==='keydown'&&e.originalEvent.key==='Escape')closedBy='escape';else if(closedBy==='still open')closedBy='close button'}});
$('#terms').on('click',function(){$('#dlg').dialog('open')});$('#go').on('click',function(){sendAnswer({dialog:closedBy})});`,
  );
}

const CHORES = ['Book dentist', 'Renew passport', 'Pay invoices', 'Call the plumber'];

function sortable(q: Record<string, string>): string {
  const { order } = pageQuery(
    z.object({
      order: z
        .string()
        .regex(/^[0-3](,[0-3]){3}$/)
        .default('0,1,2,3'),
    }),
    q,
  );
  const items = order.split(',').map((i) => CHORES[Number(i)]!);
  return doc(
    'jq-sortable',
    'Priorities',
    `<h1>This week's priorities</h1><ul id="list">${items.map((c) => `<li class="ui-state-default">${c}</li>`).join('')}</ul><button class="btn" type="button" id="save">Save order</button>`,
    `$('#list').sortable();$('#save').on('click',function(){sendAnswer({order:$('#list li').map(function(){return $(this).text()}).get()})});`,
    '#list{list-style:none;padding:0;width:260px}#list li{margin:4px 0;padding:8px 10px;cursor:move}',
  );
}

function draggable(): string {
  return doc(
    'jq-draggable',
    'Files',
    `<h1>Files</h1><div class="cards"><div class="card" data-id="q3-report">Q3 report</div><div class="card" data-id="team-photo">Team photo</div><div class="card" data-id="budget">Budget 2027</div></div>
<div id="bin" class="bin">Archive</div>`,
    `$('.card').draggable({revert:'invalid'});$('#bin').droppable({accept:'.card',hoverClass:'over',drop:function(e,ui){sendAnswer({archived:ui.draggable.data('id')});ui.draggable.remove()}});`,
    '.cards{display:flex;gap:10px;margin-bottom:40px}.card{width:110px;padding:18px 8px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;text-align:center;cursor:grab}.bin{width:200px;height:90px;border:2px dashed #8c959f;border-radius:8px;display:flex;align-items:center;justify-content:center;color:#57606a}.bin.over{background:#ddf4ff}',
  );
}

function checkboxradio(): string {
  return doc(
    'jq-checkboxradio',
    'Seat',
    `<h1>Choose your seat</h1><form id="f"><fieldset><legend>Seat</legend>
<label for="s-window">Window</label><input type="radio" name="seat" id="s-window" value="window">
<label for="s-aisle">Aisle</label><input type="radio" name="seat" id="s-aisle" value="aisle" checked>
<label for="s-middle">Middle</label><input type="radio" name="seat" id="s-middle" value="middle"></fieldset>
<fieldset><legend>Extras</legend><label for="x-legroom">Extra legroom</label><input type="checkbox" name="extra" id="x-legroom" value="legroom">
<label for="x-meal">Hot meal</label><input type="checkbox" name="extra" id="x-meal" value="meal"></fieldset>
<p><button class="btn" type="submit">Confirm</button></p></form>`,
    `$('input').checkboxradio();$('#f').on('submit',function(e){e.preventDefault();sendAnswer({seat:$('input[name=seat]:checked').val(),extras:$('input[name=extra]:checked').map(function(){return this.value}).get()})});`,
  );
}

export const JQUERY_UI_PAGES: readonly WidgetPage[] = [
  { slug: 'jq-datepicker', kit: 'jquery-ui', what: 'Date picker on a read-only field: Prev/Next links without href, day cells', render: datepicker },
  { slug: 'jq-autocomplete', kit: 'jquery-ui', what: 'Autocomplete: suggestions appear after typing two letters', render: autocomplete },
  { slug: 'jq-slider', kit: 'jquery-ui', what: 'Slider whose handle is a focusable <span> without a role', render: slider },
  { slug: 'jq-spinner', kit: 'jquery-ui', what: 'Spinner with up/down buttons', render: spinner },
  { slug: 'jq-menu', kit: 'jquery-ui', what: 'Menu whose submenus open on hover', render: menu },
  { slug: 'jq-selectmenu', kit: 'jquery-ui', what: 'Selectmenu standing in for a hidden <select>', render: selectmenu },
  { slug: 'jq-accordion', kit: 'jquery-ui', what: 'Accordion: a button inside a collapsed section', render: accordion },
  { slug: 'jq-tabs', kit: 'jquery-ui', what: 'Tabs: a button on a tab not shown yet', render: tabs },
  { slug: 'jq-dialog', kit: 'jquery-ui', what: 'Modal dialog closed with Escape', render: dialog },
  { slug: 'jq-sortable', kit: 'jquery-ui', what: 'Sortable list reordered by dragging', render: sortable },
  { slug: 'jq-draggable', kit: 'jquery-ui', what: 'Draggable cards onto a droppable bin', render: draggable },
  { slug: 'jq-checkboxradio', kit: 'jquery-ui', what: 'Checkboxradio: styled labels over hidden radios and checkboxes', render: checkboxradio },
];
