/** `/orders/:id/*` → a regex with named groups; everything else is literal. */
export function compilePath(pattern: string): RegExp {
  let source = '';
  for (const part of pattern.split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/)) {
    if (part === '*') source += '.*';
    else if (part.startsWith(':')) source += `(?<${part.slice(1)}>[^/]+)`;
    else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}/?$`);
}
