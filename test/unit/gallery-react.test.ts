/** The React gallery (issue 14): every page labelled and routed; the lab serves the SPA, its bundle and its API. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../sites/http.ts';
import { loadGalleryLabels } from '../../sites/lab/gallery/label.ts';
import { mountReactGallery } from '../../sites/lab/gallery/react-routes.ts';
import { MISMATCH_ORDER, REACT_GALLERY_SLUGS } from '../../sites/lab/gallery/react/slugs.ts';

const reactLabels = loadGalleryLabels().filter((l) => l.kit === 'react-mui');

describe('React gallery labels', () => {
  it('label every React page, and every React label names a page the SPA routes', () => {
    expect(reactLabels.map((l) => l.slug).sort()).toEqual([...REACT_GALLERY_SLUGS].sort());
    expect(REACT_GALLERY_SLUGS.length).toBeGreaterThanOrEqual(14);
  });

  it('serve each React page at /gallery/react/<slug> with an r- slug', () => {
    for (const label of reactLabels) {
      expect(label.slug).toMatch(/^r-/);
      expect(label.path).toBe(`/gallery/react/${label.slug}`);
    }
  });

  it('plant the conflicts the brief asks for, and a page with neither resource nor state', () => {
    const conflicts = reactLabels.flatMap((l) => l.conflicts);
    expect(conflicts).toContain('canvas_total_not_observed');
    expect(conflicts).toContain('dom_state_disagrees_with_network');
    expect(reactLabels.some((l) => l.resource === null && l.state === null)).toBe(true);
    expect(reactLabels.find((l) => l.slug === 'r-product-trail-runner')?.resource).toBeNull();
  });

  it("label the network-disagreement page with the server's state, the stale chip being the planted conflict", () => {
    const page = reactLabels.find((l) => l.conflicts.includes('dom_state_disagrees_with_network'))!;
    expect(page.resource?.id).toBe(MISMATCH_ORDER.id);
    expect(page.state).toBe(MISMATCH_ORDER.status);
  });
});

describe('React gallery routes', () => {
  let server: Server;
  let base: string;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'gallery-react-'));
    const router = new Router({ renderHtmlError: (e) => `<h1>${e.status} ${e.code}</h1><p>${e.message}</p>` });
    mountReactGallery(router, dist);
    server = createServer(router.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it('explain on a clear error page that the bundle is not built yet', async () => {
    const res = await fetch(`${base}/gallery/react/r-order-detail`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:gallery');
  });

  it('answer every page path with the SPA, serve its bundle, and 404 unknown pages', async () => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<div id="root"></div><script type="module" src="/gallery/react/assets/index-abc.js"></script>');
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    for (const slug of REACT_GALLERY_SLUGS) {
      const res = await fetch(`${base}/gallery/react/${slug}`, { headers: { accept: 'text/html' } });
      expect(res.status, slug).toBe(200);
      expect(await res.text()).toContain('id="root"');
    }
    const js = await fetch(`${base}/gallery/react/assets/index-abc.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${base}/gallery/react/assets/index-old.js`)).status).toBe(404);
    expect((await fetch(`${base}/gallery/react/r-no-such-page`, { headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('serve the order JSON the status-mismatch page fetches', async () => {
    const res = await fetch(`${base}/gallery/react/api/orders/ORD-2021`, { headers: { accept: 'application/json' } });
    expect(await res.json()).toMatchObject({ id: 'ORD-2021', status: 'cancelled' });
    expect((await fetch(`${base}/gallery/react/api/orders/ORD-1`, { headers: { accept: 'application/json' } })).status).toBe(404);
  });
});
