/** One widget page: its slug under `/widgets/`, the kit it is built with, and how it renders from its query. */
import { z } from 'zod';
import { validate } from '../../http.ts';

export const WIDGET_KITS = ['jquery-ui', 'react-mui', 'native', 'vanilla'] as const;
type WidgetKit = (typeof WIDGET_KITS)[number];

export interface WidgetPage {
  slug: string;
  kit: WidgetKit;
  /** One line for the index: what the page holds and what makes it hard. */
  what: string;
  /** Server-rendered pages only (the React ones are the gallery SPA's). */
  render?: (query: Record<string, string>) => string;
}

/** A page's query, validated (a bad parameter is a 400 naming it, never a guess). */
export function pageQuery<S extends z.ZodType>(schema: S, query: Record<string, string>): z.output<S> {
  return validate(schema, query, 'Query');
}
