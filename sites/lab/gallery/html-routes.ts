import type { Router } from '../../http.ts';

/** The gallery's html pages under `/gallery/html/<slug>` (see label.ts). */
export function mountHtmlGallery(router: Router): void {
  void router;
}
