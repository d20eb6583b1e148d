import type { Router } from '../../http.ts';

/** The gallery's react pages under `/gallery/react/<slug>` (see label.ts). */
export function mountReactGallery(router: Router): void {
  void router;
}
