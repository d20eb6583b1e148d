/** Vite's `?raw` import: the file's text (the panel ships docs/PRIVACY.md this way). */
declare module '*.md?raw' {
  const text: string;
  export default text;
}
