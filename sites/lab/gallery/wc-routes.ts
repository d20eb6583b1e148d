import type { Router } from '../../http.ts';

/** The gallery's wc pages under `/gallery/wc/<slug>` (see label.ts). */
export function mountWcGallery(router: Router): void {
  void router;
}
