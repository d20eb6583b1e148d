import { slCrumbs, wcDoc } from './doc.ts';

/** Pages that name no resource: a product whose name has a number, a promo page that never sits still. */

export function productGalaxyPage(): string {
  return wcDoc({
    title: 'Galaxy S24 | Phones | Voltmart',
    brand: 'Voltmart',
    css: '.price{font-size:28px;font-weight:700}',
    body: `${slCrumbs('Phones', 'Samsung', 'Galaxy S24')}
<div class="heading"><h1>Galaxy S24</h1><sl-badge variant="primary">New</sl-badge></div>
<sl-rating label="Rating" readonly value="4.5"></sl-rating> <span>(2,318 reviews)</span>
<sl-card style="margin-top:12px"><div class="price js-price">$799.99</div>
<div style="max-width:260px;margin-top:10px"><sl-select label="Storage" value="128" class="js-storage"><sl-option value="128">128 GB</sl-option><sl-option value="256">256 GB</sl-option><sl-option value="512">512 GB</sl-option></sl-select></div>
<div class="actions"><sl-button variant="primary">Add to cart</sl-button><sl-button>Compare</sl-button></div></sl-card>`,
    module: `const prices={'128':'$799.99','256':'$859.99','512':'$979.99'};document.querySelector('.js-storage').addEventListener('sl-change',(e)=>{document.querySelector('.js-price').textContent=prices[e.target.value]??''});`,
  });
}

export function promoCarouselPage(): string {
  return wcDoc({
    title: 'Summer Sale — Voltmart',
    brand: 'Voltmart',
    css: 'sl-carousel{--aspect-ratio:3/1}.slide{display:flex;flex-direction:column;justify-content:center;align-items:center;width:100%;height:100%;color:#fff;font-size:22px}',
    body: `<sl-carousel autoplay loop pagination autoplay-interval="3000" label="Promotions">
<sl-carousel-item><div class="slide" style="background:#0b5cad">Up to 40% off laptops</div></sl-carousel-item>
<sl-carousel-item><div class="slide" style="background:#8250df">Trade in your phone, get $200</div></sl-carousel-item>
<sl-carousel-item><div class="slide" style="background:#1a7f37">Free delivery this week</div></sl-carousel-item></sl-carousel>
<div class="heading"><h1>Summer Sale</h1></div>
<p>Sale ends in <strong class="js-cd">3d 04:12:45</strong></p>
<sl-alert variant="primary" open class="js-live">Maria in Lyon just bought AirPods Pro</sl-alert>
<div class="actions"><sl-button variant="primary">Shop the sale</sl-button><sl-button>Sign up for deals</sl-button></div>`,
    module: `const end=Date.now()+((3*24+4)*3600+12*60+45)*1000,p=(n)=>String(n).padStart(2,'0');
setInterval(()=>{const t=Math.max(0,Math.floor((end-Date.now())/1000));document.querySelector('.js-cd').textContent=Math.floor(t/86400)+'d '+p(Math.floor(t/3600)%24)+':'+p(Math.floor(t/60)%60)+':'+p(t%60)},1000);
const who=['Maria in Lyon just bought AirPods Pro','Tom in Leeds just bought a 4K monitor','Aiko in Osaka just bought a Galaxy Tab'];let i=0;setInterval(()=>{i=(i+1)%who.length;document.querySelector('.js-live').textContent=who[i]},4000);`,
  });
}
