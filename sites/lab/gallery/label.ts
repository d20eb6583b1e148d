/**
 * The labelled page gallery (issue 14): pages written the way real sites are, each with a label
 * file in `labels/<slug>.json` saying what a truthful observer reports there. The truth benchmark
 * (`truth.*` rows) and its e2e regression check read these labels; nothing else does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const Snake = z.string().regex(/^[a-z][a-z0-9_]*$/);

export const GalleryLabel = z
  .object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    /** Path on the lab site: `/gallery/react/<slug>`, `/gallery/wc/<slug>` or `/gallery/html/<slug>`. */
    path: z.string().regex(/^\/gallery\/(react|wc|html)\/[a-z0-9-]+(\?[\w=&-]*)?$/),
    /** How the page is built: React with Material UI, web components (Shoelace, shadow DOM), or server HTML. */
    kit: z.enum(['react-mui', 'web-components', 'html']),
    /** One line for the gallery's index: what the page is and what makes it hard. */
    what: z.string().min(1).max(200),
    /** The resource the page is about; null when it names none (Steward must then say it could not tell). */
    resource: z.object({ type: Snake, id: z.string().min(1).max(128) }).nullable(),
    /** Canonical state name (Steward's vocabulary, `awaiting_payment`); null when the page shows none (`unknown`). */
    state: Snake.nullable(),
    /** Conflicts planted on the page (`canvas_total_not_observed`, `dom_state_disagrees_with_network`): each must be reported. */
    conflicts: z.array(Snake).max(16),
    /** Accessible names of controls a person can use there: each must be offered as an action (a tool or `dom.*`). */
    clickable: z.array(z.string().min(1).max(120)).max(32),
    /** Accessible names of controls nobody can reach (far off-canvas, clipped): none may be offered `dom.click` or `dom.scroll`. */
    unreachable: z.array(z.string().min(1).max(120)).max(16).default([]),
    /** What churns on its own (clock, countdown, ticker, rotating banner, ad, live region): must not change state_version. */
    churn: z.array(z.string().min(1).max(120)).max(16),
    /** A control a person uses to make a real change (quantity +1, a checkbox that is part of the state): state_version must move. */
    real_change: z
      .object({
        role: z.enum(['button', 'checkbox', 'switch', 'radio', 'combobox', 'link', 'tab', 'menuitem', 'option', 'slider']),
        name: z.string().min(1).max(120),
        /** For a combobox: the option to choose. */
        option: z.string().max(120).optional(),
        what: z.string().min(1).max(200),
      })
      .optional(),
    /** SVG shapes the page draws, by the name a person reads on them: what a truthful observer says of each (issue 26). */
    shapes: z
      .array(
        z
          .object({
            name: z.string().min(1).max(120),
            kind: z.enum(['circle', 'ellipse', 'rect', 'polygon', 'path', 'line']),
            /** The fill's colour name. */
            fill: z.enum(['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'black', 'grey', 'white']),
            /** Relative to the other shapes on the page. */
            size: z.enum(['small', 'medium', 'large']),
          })
          .strict(),
      )
      .max(32)
      .optional(),
  })
  .strict();
export type GalleryLabel = z.infer<typeof GalleryLabel>;

const LABELS_DIR = join(import.meta.dirname, 'labels');

/** Every label file, validated; a malformed one throws naming its file. */
export function loadGalleryLabels(dir = LABELS_DIR): GalleryLabel[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = GalleryLabel.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      if (!parsed.success) throw new Error(`gallery label ${file}: ${z.prettifyError(parsed.error)}`);
      if (`${parsed.data.slug}.json` !== file) throw new Error(`gallery label ${file}: slug must match the file name`);
      return parsed.data;
    });
}
