import { crumbs, htmlDoc } from './doc.ts';

/** Order pages whose controls a person cannot simply click: a cookie wall over them, or placed where nobody can reach. */

export function cookieBannerPage(): string {
  return htmlDoc({
    title: 'Order ORD-6042 — Maple & Co',
    brand: 'Maple & Co',
    css: '.cookie{position:fixed;left:0;right:0;bottom:0;z-index:50;background:#fff;border-top:2px solid #111827;padding:40px 24px 60px;box-shadow:0 -4px 20px rgba(0,0,0,.15)}.actions{position:fixed;bottom:40px;left:24px;z-index:10}',
    body: `${crumbs('Orders', 'ORD-6042')}
<div class="panel"><div class="ttl"><h1>Order ORD-6042</h1><span class="pill pill--amber">Awaiting payment</span></div>
<dl class="kv" style="margin-top:10px"><dt>Total</dt><dd>$212.00</dd><dt>Placed</dt><dd>18 May 2024</dd></dl></div>
<div class="actions"><button class="btn btn--primary" type="button">Pay now</button> <button class="btn btn--danger" type="button">Cancel order</button></div>
<div class="cookie" role="dialog" aria-label="Cookie consent"><b>We value your privacy</b><p>We use cookies to improve your experience and for marketing. You can change your choice at any time.</p>
<button class="btn btn--primary js-accept" type="button">Accept all cookies</button> <button class="btn js-reject" type="button">Reject non-essential</button></div>`,
    script: `(function(){function close(){document.querySelector('.cookie').remove()}document.querySelector('.js-accept').addEventListener('click',close);document.querySelector('.js-reject').addEventListener('click',close)})();`,
  });
}

export function offCanvasPage(): string {
  return htmlDoc({
    title: 'Order ORD-6120 — Parcel Hub',
    brand: 'Parcel Hub',
    css: '.legacy{position:absolute;left:-9999px;top:0}.clip{width:300px;height:40px;overflow:hidden;position:relative}.clip .inner{position:absolute;left:600px;top:0}',
    body: `${crumbs('Orders', 'ORD-6120')}
<div class="panel"><div class="ttl"><h1>Order ORD-6120</h1><span class="pill pill--green">Delivered</span></div>
<dl class="kv" style="margin-top:10px"><dt>Delivered</dt><dd>22 May 2024, left at front door</dd><dt>Total</dt><dd>$47.90</dd></dl>
<p><button class="btn" type="button">Write a review</button></p>
<div class="legacy"><button class="btn" type="button">Cancel order (legacy)</button></div>
<div class="clip"><span class="muted">More actions</span><div class="inner"><button class="btn" type="button">Claim refund</button></div></div></div>`,
  });
}
