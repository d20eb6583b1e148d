/**
 * Controls a person can still use though something lies over them — partly under a sticky
 * header (the page opens scrolled), partly under a sibling badge, wholly under a cookie banner
 * (close it first), under a transparent overlay that lets clicks through (pointer-events: none)
 * — and one nobody can reach (clipped away inside an overflow-hidden box).
 */
import { widgetDoc } from './doc.ts';
import type { WidgetPage } from './page.ts';

const UNREACHABLE_BUTTON = 'Delete forever';

function coveredPage(): string {
  return widgetDoc({
    slug: 'v-covered',
    title: 'Editor',
    css: `.bar{position:sticky;top:0;z-index:10;height:60px;background:#24292f;color:#fff;display:flex;align-items:center;padding:0 16px;box-shadow:0 2px 6px rgba(0,0,0,.3)}
.spacer{height:400px;color:#8c959f}.tall{height:900px}.wrap{position:relative;display:inline-block;margin:16px 0}
.badge{position:absolute;left:-6px;top:-4px;width:70px;height:42px;background:#fd8c73;color:#fff;font-size:12px;border-radius:6px;display:flex;align-items:center;justify-content:center;z-index:2}
.glass{position:absolute;inset:-10px;background:rgba(255,255,255,.35);pointer-events:none;z-index:3}
.clip{position:relative;height:40px;overflow:hidden;border:1px solid #eaeef2}.clip .btn{position:absolute;top:120px;left:10px}
.actions{position:fixed;left:0;right:0;bottom:20px;display:flex;justify-content:center;z-index:20}
.cookie{position:fixed;left:0;right:0;bottom:0;height:110px;background:#1f2328;color:#fff;z-index:30;display:flex;align-items:center;gap:16px;padding:0 24px}
.cookie .x{margin-left:auto;background:none;border:1px solid #8c959f;color:#fff;border-radius:50%;width:30px;height:30px;cursor:pointer}`,
    body: `<div class="bar">Draft: “Autumn menu”</div>
<div class="spacer">Draft text…</div>
<div><button class="btn plain" type="button" id="save">Save draft</button></div>
<div class="wrap"><span class="badge">NEW</span><button class="btn plain" type="button">Add to list</button></div>
<div class="wrap"><button class="btn plain" type="button">Preview</button><div class="glass"></div></div>
<div class="clip"><span class="muted">Danger zone</span><button class="btn plain" type="button">${UNREACHABLE_BUTTON}</button></div>
<div class="tall"></div>
<div class="actions"><button class="btn" type="button">Publish</button></div>
<div class="cookie" id="cookie"><span>We use cookies to keep you signed in.</span><button class="x" type="button" aria-label="Close">✕</button></div>`,
    // Opens with "Save draft" half under the sticky bar, as after following a link to this section.
    script: `var s=document.getElementById('save');window.scrollTo(0,s.getBoundingClientRect().top+window.scrollY-40);
document.querySelector('.cookie .x').addEventListener('click',function(){document.getElementById('cookie').remove()});
document.querySelectorAll('.page button.btn').forEach(function(b){b.addEventListener('click',function(){sendAnswer({pressed:b.textContent})})});`,
  });
}

export const COVERED_PAGES: readonly WidgetPage[] = [
  { slug: 'v-covered', kit: 'vanilla', what: 'Buttons under a sticky header, a sibling badge, a cookie banner and a pass-through overlay; one clipped away', render: coveredPage },
];
