import type { Router } from '../../http.ts';
import { mountHtmlGallery } from './html-routes.ts';
import { mountReactGallery } from './react-routes.ts';
import { mountWcGallery } from './wc-routes.ts';

/** The labelled page gallery: three kinds of pages, each kind mounted by its own module. */
export function mountGallery(router: Router): void {
  mountReactGallery(router);
  mountWcGallery(router);
  mountHtmlGallery(router);
}
