/**
 * A quantity changed in place by the page's own − and + buttons: the number sits in a plain text
 * field with no label, as many shops write steppers; no request, no reload (issue 26's
 * state_version case). "Add to basket" sends the quantity.
 */
import { z } from 'zod';
import { widgetDoc } from './doc.ts';
import { pageQuery, type WidgetPage } from './page.ts';

function quantityPage(q: Record<string, string>): string {
  const { start } = pageQuery(z.object({ start: z.coerce.number().int().min(1).max(9).default(1) }), q);
  return widgetDoc({
    slug: 'v-quantity',
    title: 'Espresso beans',
    css: '.stepper{display:inline-flex;align-items:center;gap:10px;margin:8px 0 14px}.stepper button{width:32px;height:32px;border:1px solid #d0d7de;border-radius:50%;background:#fff;font-size:18px;cursor:pointer}.count{width:3em;text-align:center;font-weight:600}',
    body: `<h1>Espresso beans, 250 g</h1><p>€9.50 · roasted on Mondays</p>
<div class="stepper"><button type="button" class="dec">−</button><input class="count" type="text" inputmode="numeric" size="2" value="${start}"><button type="button" class="inc">+</button></div>
<div><button class="btn" type="button" id="add">Add to basket</button></div>`,
    // The field can be typed into too: the buttons step from whatever it holds.
    script: `var c=document.querySelector('.count');function get(){var v=parseInt(c.value,10);return isNaN(v)?1:v}
document.querySelector('.dec').addEventListener('click',function(){c.value=String(Math.max(1,get()-1))});
document.querySelector('.inc').addEventListener('click',function(){c.value=String(Math.min(9,get()+1))});
document.getElementById('add').addEventListener('click',function(){sendAnswer({quantity:get()})});`,
  });
}

export const QUANTITY_PAGES: readonly WidgetPage[] = [{ slug: 'v-quantity', kit: 'vanilla', what: 'A quantity set in place with unlabelled − / + buttons', render: quantityPage }];
