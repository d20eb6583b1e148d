/**
 * The labelled gallery (issue 14): every label file loads, names a page the lab site serves, and
 * the pages' own resources (Shoelace, the ad frame, the order API) are there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGalleryLabels, type GalleryLabel } from '../../sites/lab/gallery/label.ts';
import { freePorts, startDemoSites, type RunningDemoSites } from '../../sites/server.ts';

let sites: RunningDemoSites;
let lab: string;
const labels: GalleryLabel[] = loadGalleryLabels();

beforeAll(async () => {
  sites = await startDemoSites({ ports: freePorts() });
  lab = sites.urls.lab;
});

afterAll(async () => {
  await sites?.stop();
});

const KIND_OF_PREFIX: Record<string, { dir: string; kit: GalleryLabel['kit'] }> = {
  r: { dir: 'react', kit: 'react-mui' },
  w: { dir: 'wc', kit: 'web-components' },
  h: { dir: 'html', kit: 'html' },
};

describe('gallery labels', () => {
  it('has at least 8 web-components pages and 10 server-HTML pages', () => {
    expect(labels.filter((l) => l.kit === 'web-components').length).toBeGreaterThanOrEqual(8);
    expect(labels.filter((l) => l.kit === 'html').length).toBeGreaterThanOrEqual(10);
  });

  it('has unique slugs and paths', () => {
    expect(new Set(labels.map((l) => l.slug)).size).toBe(labels.length);
    expect(new Set(labels.map((l) => l.path)).size).toBe(labels.length);
  });

  it.each(labels.map((l) => [l.slug, l] as const))('%s: the slug prefix, kit and path agree', (_slug, label) => {
    const kind = KIND_OF_PREFIX[label.slug.slice(0, 1)];
    expect(kind, 'slug starts with r-, w- or h-').toBeDefined();
    expect(label.slug[1]).toBe('-');
    expect(label.kit).toBe(kind?.kit);
    expect(label.path.split('?')[0]).toBe(`/gallery/${kind?.dir}/${label.slug}`);
  });

  it('names a real change only with a control a person can also click', () => {
    for (const label of labels.filter((l) => l.real_change)) expect(label.clickable, label.slug).toContain(label.real_change?.name);
  });

  it('never lists a control as both clickable and unreachable', () => {
    for (const label of labels)
      expect(
        label.clickable.filter((name) => label.unreachable.includes(name)),
        label.slug,
      ).toEqual([]);
  });
});

describe('gallery pages on the lab site', () => {
  it.each(labels.map((l) => [l.path] as const))('serves %s as HTML', async (path) => {
    const res = await fetch(lab + path, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toMatch(/^<!doctype html>/i);
  });

  it('answers 404 for a slug without a page', async () => {
    expect((await fetch(`${lab}/gallery/html/h-no-such-page`, { headers: { accept: 'text/html' } })).status).toBe(404);
    expect((await fetch(`${lab}/gallery/wc/w-no-such-page`, { headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('serves Shoelace from its cdn build, and nothing outside it', async () => {
    const loader = await fetch(`${lab}/gallery/wc/_shoelace/shoelace-autoloader.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toContain('text/javascript');
    expect(await loader.text()).toContain('getBasePath');
    const button = await fetch(`${lab}/gallery/wc/_shoelace/components/button/button.js`);
    expect(button.status).toBe(200);
    const theme = await fetch(`${lab}/gallery/wc/_shoelace/themes/light.css`);
    expect(theme.headers.get('content-type')).toContain('text/css');
    expect((await fetch(`${lab}/gallery/wc/_shoelace/%2E%2E/package.json`)).status).toBe(404);
    expect((await fetch(`${lab}/gallery/wc/_shoelace/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  it('plants the network conflict: the page says Processing, the order API it fetches says cancelled', async () => {
    const page = await (await fetch(`${lab}/gallery/html/h-order-network-mismatch`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('>Processing</span>');
    expect(page).toContain('/gallery/html/_api/orders/ORD-4410');
    const order = (await (await fetch(`${lab}/gallery/html/_api/orders/ORD-4410`)).json()) as { status: string };
    expect(order.status).toBe('cancelled');
  });

  it('serves the ad frame the news page embeds', async () => {
    const page = await (await fetch(`${lab}/gallery/html/h-news-ads`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('src="/gallery/html/_ad"');
    expect((await fetch(`${lab}/gallery/html/_ad`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });
});
