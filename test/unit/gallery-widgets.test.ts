/** The gallery's pages for issue 26's widget classes: labelled as the pages are built. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOOR_PLAN } from '../../sites/lab/gallery/html/widgets.ts';
import { loadGalleryLabels } from '../../sites/lab/gallery/label.ts';
import { freePorts, startDemoSites, type RunningDemoSites } from '../../sites/server.ts';

const labels = new Map(loadGalleryLabels().map((l) => [l.slug, l]));
let sites: RunningDemoSites;
beforeAll(async () => {
  sites = await startDemoSites({ ports: freePorts() });
});
afterAll(async () => {
  await sites?.stop();
});
const html = async (path: string) => (await fetch(sites.urls.lab + path, { headers: { accept: 'text/html' } })).text();

describe('gallery pages for the widget classes', () => {
  it('are labelled: jQuery UI, MUI, native inputs, clickable text, covered controls, SVG shapes, a count changed in place', () => {
    for (const slug of ['h-jqui-hotel-search', 'r-workspace-preferences', 'h-native-trip', 'h-clickable-text', 'h-covered-controls', 'h-svg-floor-plan', 'h-tickets-in-place'])
      expect(labels.has(slug), slug).toBe(true);
  });

  it('list the floor plan’s shapes as the page draws them', async () => {
    const label = labels.get('h-svg-floor-plan')!;
    expect(label.shapes).toEqual(FLOOR_PLAN.map(({ name, kind, fill, size }) => ({ name, kind, fill, size })));
    const page = await html(label.path);
    for (const shape of FLOOR_PLAN) expect(page).toContain(`<g><title>${shape.name}</title>${shape.svg}</g>`);
  });

  it('name the covered controls clickable and the clipped one unreachable, as the page has them', async () => {
    const label = labels.get('h-covered-controls')!;
    const page = await html(label.path);
    for (const name of [...label.clickable, ...label.unreachable]) expect(page).toMatch(new RegExp(`>${name}</button>|aria-label="${name}"`));
    expect(page).toContain('<div class="clip"><span class="muted">Danger zone</span><button class="btn btn--danger" type="button">Delete forever</button>');
  });

  it('change the ticket count in place: no request, no reload, no label on the count', async () => {
    const page = await html(labels.get('h-tickets-in-place')!.path);
    expect(page).toContain('<p class="js-count">2 tickets selected</p>');
    expect(page).not.toMatch(/fetch\(|XMLHttpRequest|location|<form/);
  });

  it('load jQuery UI from the lab itself', async () => {
    const page = await html(labels.get('h-jqui-hotel-search')!.path);
    expect(page).toContain('<script src="/widgets/_lib/jquery-ui.js"></script>');
  });
});
