/**
 * Shapes a person picks by look: SVG circles, squares and triangles of several colours and sizes
 * (no titles, no labels: "click the large red circle"), and the same kind of drawing on a canvas,
 * which no DOM reader sees (a blind spot). Where each shape sits comes from `?layout=0..7`.
 */
import { z } from 'zod';
import { widgetDoc, js } from './doc.ts';
import { pageQuery, type WidgetPage } from './page.ts';

const SHAPE_COLOURS = { red: '#d32f2f', blue: '#1e63d6', green: '#2e8b3d', yellow: '#f2c200' } as const;
type Colour = keyof typeof SHAPE_COLOURS;
interface Shape {
  shape: 'circle' | 'square' | 'triangle';
  color: Colour;
  size: 'large' | 'small';
}

const SHAPES: readonly Shape[] = [
  { shape: 'circle', color: 'red', size: 'large' },
  { shape: 'circle', color: 'red', size: 'small' },
  { shape: 'circle', color: 'blue', size: 'large' },
  { shape: 'square', color: 'blue', size: 'small' },
  { shape: 'square', color: 'red', size: 'large' },
  { shape: 'triangle', color: 'green', size: 'large' },
  { shape: 'triangle', color: 'yellow', size: 'small' },
  { shape: 'circle', color: 'green', size: 'small' },
];

const Layout = z.object({ layout: z.coerce.number().int().min(0).max(7).default(0) });
const SLOT_W = 110;
const SLOT_H = 110;

/** Slot of shape i in a layout: i·3 + layout mod 8 is a permutation (3 and 8 are coprime). */
const slotOf = (i: number, layout: number) => (i * 3 + layout) % SHAPES.length;
const centre = (slot: number) => ({ x: 55 + (slot % 4) * SLOT_W, y: 55 + Math.floor(slot / 4) * SLOT_H });

function svgShape(s: Shape, i: number, layout: number): string {
  const { x, y } = centre(slotOf(i, layout));
  const r = s.size === 'large' ? 40 : 16;
  const fill = SHAPE_COLOURS[s.color];
  const data = `data-i="${i}"`;
  if (s.shape === 'circle') return `<circle ${data} cx="${x}" cy="${y}" r="${r}" fill="${fill}"/>`;
  if (s.shape === 'square') return `<rect ${data} x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" fill="${fill}"/>`;
  return `<polygon ${data} points="${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}" fill="${fill}"/>`;
}

function svgPage(q: Record<string, string>): string {
  const { layout } = pageQuery(Layout, q);
  return widgetDoc({
    slug: 'v-svg-shapes',
    title: 'Shapes',
    css: 'svg [data-i]{cursor:pointer}',
    body: `<h1>Pick a shape</h1><svg id="board" width="440" height="220" viewBox="0 0 440 220" style="border:1px solid #d0d7de;border-radius:6px">${SHAPES.map((s, i) => svgShape(s, i, layout)).join('')}</svg>`,
    script: `var SHAPES=${js(SHAPES)};document.querySelectorAll('#board [data-i]').forEach(function(el){el.addEventListener('click',function(){sendAnswer(SHAPES[Number(el.dataset.i)])})});`,
  });
}

/** On the canvas: a blue square and a red circle, placed by the layout; a click is hit-tested. */
function canvasPage(q: Record<string, string>): string {
  const { layout } = pageQuery(Layout, q);
  const square = centre(slotOf(3, layout));
  const circle = centre(slotOf(0, layout));
  return widgetDoc({
    slug: 'v-canvas',
    title: 'Canvas',
    body: `<h1>Click the drawing</h1><canvas id="cv" width="440" height="220" style="border:1px solid #d0d7de;border-radius:6px"></canvas>`,
    script: `var sq=${js(square)},ci=${js(circle)},cv=document.getElementById('cv'),g=cv.getContext('2d');
g.fillStyle=${js(SHAPE_COLOURS.blue)};g.fillRect(sq.x-30,sq.y-30,60,60);g.fillStyle=${js(SHAPE_COLOURS.red)};g.beginPath();g.arc(ci.x,ci.y,30,0,Math.PI*2);g.fill();
cv.addEventListener('click',function(e){var b=cv.getBoundingClientRect(),x=e.clientX-b.left,y=e.clientY-b.top;
var hit=Math.abs(x-sq.x)<=30&&Math.abs(y-sq.y)<=30?'blue square':Math.hypot(x-ci.x,y-ci.y)<=30?'red circle':null;sendAnswer({hit:hit})});`,
  });
}

export const SHAPE_PAGES: readonly WidgetPage[] = [
  { slug: 'v-svg-shapes', kit: 'vanilla', what: 'SVG circles, squares and triangles in four colours and two sizes, no labels', render: svgPage },
  { slug: 'v-canvas', kit: 'vanilla', what: 'A square and a circle drawn on a canvas (a blind spot)', render: canvasPage },
];
