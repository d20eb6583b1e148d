/**
 * The attribute Steward's hover emulation puts on the element its pointer rests on and on that
 * element's ancestors (src/content/act/hover-style.ts): the page's `:hover` rules, mirrored onto
 * it, apply while it is there. The observer reads a change of it as a change of style, not of
 * the page's content.
 */
export const HOVER_ATTRIBUTE = 'data-steward-hover';
