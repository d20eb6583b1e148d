import { crumbs, htmlDoc } from './doc.ts';

/** Pages that name no resource: a product whose name ends in a number, a news front, an admin list. */

export function productPage(): string {
  return htmlDoc({
    title: 'Trail Runner 3 — Men’s trail running shoe | Ridgeline',
    brand: 'Ridgeline',
    css: '.promo{background:#111827;color:#fff;text-align:center;padding:6px;font-size:13px}.price{font-size:26px;font-weight:700}',
    body: `<div class="promo js-promo" aria-live="off">Free shipping on orders over $50</div>
${crumbs('Men', 'Running', 'Trail Runner 3')}
<div class="panel row"><div class="col"><svg width="320" height="200" viewBox="0 0 320 200" role="img" aria-label="Trail Runner 3 in slate"><rect width="320" height="200" fill="#eaeef2"/><path d="M40 140 Q120 60 230 110 L290 130 L290 150 L40 150 Z" fill="#5b6b7f"/></svg></div>
<div class="col"><h1 style="font-size:26px;margin:0">Trail Runner 3</h1><div class="muted">Model TR3-M · 4.6 ★ (1,204 reviews)</div><div class="price">$139.00</div>
<span class="pill pill--green">In stock</span>
<p><label for="size">Size</label> <select id="size"><option>US 8</option><option>US 9</option><option selected>US 10</option><option>US 11</option></select></p>
<p><button class="btn btn--primary" type="button">Add to cart</button> <button class="btn" type="button">Add to wishlist</button></p></div></div>`,
    script: `(function(){var m=['Free shipping on orders over $50','Members get 10% off — join free','New: Trail Runner 3 GTX'],i=0;setInterval(function(){i=(i+1)%m.length;document.querySelector('.js-promo').textContent=m[i]},3000)})();`,
  });
}

export function newsPage(): string {
  return htmlDoc({
    title: 'The Daily Ledger — Markets, Tech, Culture',
    brand: 'The Daily Ledger',
    css: '.hero{position:relative;height:200px;overflow:hidden;border-radius:8px;background:#0b3d91;color:#fff}.slide{position:absolute;inset:0;padding:30px;display:none}.slide.on{display:block}.slide h2{margin:0 0 6px;font-size:26px}.cd{font-variant-numeric:tabular-nums;font-weight:700}.adbox{border:1px dashed #d0d7de;padding:6px;text-align:center}',
    body: `<div class="hero" aria-roledescription="carousel"><div class="slide on"><h2>Spring Sale ends soon</h2><p>Subscribe for $1/week. Offer ends in <span class="cd js-cd">02:14:09:33</span></p></div><div class="slide"><h2>Election night live</h2><p>Follow the results as they come in.</p></div><div class="slide"><h2>The Ledger podcast</h2><p>New episode every Tuesday.</p></div></div>
<div class="row" style="margin-top:16px"><div class="col" style="flex:2 1 400px"><article class="panel"><h1 style="font-size:22px;margin:0 0 6px">Central bank holds rates steady for third month</h1><p class="muted">By Ana Ruiz · 6 min read</p><p>Policymakers kept the benchmark rate unchanged on Wednesday, citing cooling inflation and a resilient labour market…</p><a href="#">Read more</a></article>
<article class="panel"><h2 style="font-size:18px;margin:0 0 6px">Chipmakers rally on AI demand</h2><p>Shares of semiconductor firms rose for a fifth session…</p><a href="#">Read more</a></article></div>
<aside class="col"><div class="adbox"><div class="muted">Advertisement</div><iframe title="Advertisement" src="/gallery/html/_ad" width="300" height="250" style="border:0"></iframe></div>
<div class="panel"><button class="btn btn--primary" type="button">Subscribe</button></div></aside></div>`,
    script: `(function(){var s=document.querySelectorAll('.slide'),i=0;setInterval(function(){s[i].classList.remove('on');i=(i+1)%s.length;s[i].classList.add('on')},4000);
var end=Date.now()+((2*24+14)*3600+9*60+33)*1000;function p(n){return String(n).padStart(2,'0')}setInterval(function(){var t=Math.max(0,Math.floor((end-Date.now())/1000));document.querySelector('.js-cd').textContent=p(Math.floor(t/86400))+':'+p(Math.floor(t/3600)%24)+':'+p(Math.floor(t/60)%60)+':'+p(t%60)},1000)})();`,
  });
}

/** The ad frame's document: a rotating creative, as ad slots are. */
export function adFramePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ad</title><style>body{margin:0;font:14px sans-serif}.ad{height:250px;display:flex;align-items:center;justify-content:center;flex-direction:column;background:#fde68a}</style></head>
<body><div class="ad"><b class="js-ad">Fly to Rome from $199</b><a href="#">Book now</a></div>
<script>(function(){var a=['Fly to Rome from $199','50% off noise-cancelling headphones','Refinance today: 5.9% APR'],i=0;setInterval(function(){i=(i+1)%a.length;document.querySelector('.js-ad').textContent=a[i]},2000)})();</script></body></html>`;
}

/** An admin list with pagination and a stock ticker in the header. */
export function adminTablePage(): string {
  const statuses = ['Paid', 'Shipped', 'Awaiting payment', 'Delivered', 'Cancelled', 'Processing'];
  const rows = Array.from({ length: 12 }, (_, i) => {
    const n = 5100 + i;
    const status = statuses[i % statuses.length] ?? 'Paid';
    return `<tr><td><input type="checkbox" aria-label="Select ORD-${n}"></td><td><a href="#">ORD-${n}</a></td><td>Customer ${i + 1}</td><td><span class="tag">${status}</span></td><td class="num">$${(20 + i * 7.5).toFixed(2)}</td></tr>`;
  }).join('');
  return htmlDoc({
    title: 'Orders · Admin — Shopline',
    brand: 'Shopline Admin',
    css: '.ticker{background:#0d1117;color:#7ee787;font:12px monospace;padding:4px 24px;white-space:nowrap;overflow:hidden}.tag{font-size:12px;background:#eaeef2;border-radius:4px;padding:1px 6px}.pager{display:flex;gap:6px;align-items:center;margin-top:10px}',
    body: `<div class="ticker js-ticker" aria-hidden="false">SHPL 41.20 ▲0.35 · NASDAQ 16,302.1 ▼12.4 · BTC 63,118 ▲220</div>
${crumbs('Admin', 'Orders')}
<div class="panel"><div class="ttl"><h1>Orders</h1><span class="muted">1,284 orders</span></div>
<div style="margin:10px 0"><input type="search" aria-label="Search orders" placeholder="Search orders"> <button class="btn" type="button">Export CSV</button></div>
<table class="tbl"><thead><tr><th></th><th>Order</th><th>Customer</th><th>Status</th><th class="num">Total</th></tr></thead><tbody>${rows}</tbody></table>
<div class="pager"><button class="btn" type="button" disabled>Previous page</button><span class="muted">Page 1 of 107</span><button class="btn" type="button">Next page</button></div></div>`,
    script: `(function(){var p=41.2;setInterval(function(){p=Math.max(1,p+(Math.random()-.5));var d=(p-41.2).toFixed(2);document.querySelector('.js-ticker').textContent='SHPL '+p.toFixed(2)+' '+(d>=0?'▲':'▼')+Math.abs(d)+' · NASDAQ 16,302.1 ▼12.4 · BTC 63,118 ▲220'},1500)})();`,
  });
}
