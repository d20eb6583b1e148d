import { Fragment, type ComponentChildren } from 'preact';
import { t, type MessageKey, type Substitutions } from '../../base/i18n.ts';

/** Marks where substitution `i` lands: private-use characters no message or value contains. */
const mark = (i: number) => `\uE000${i}\uE001`;

/**
 * A message whose placeholders hold markup (`Steward does not read <strong>{origin}</strong>`):
 * each placeholder gets a marker through t(), and the markers are replaced by the given nodes, so
 * the translation decides where they go and the words around them stay the catalogue's.
 */
export function Words<K extends MessageKey>({ id, parts }: { id: K; parts: Substitutions<K, ComponentChildren> }) {
  const marked = (t as (key: K, ...subs: string[]) => string)(id, ...parts.map((_, i) => mark(i)));
  const pieces = marked.split(/\uE000(\d+)\uE001/);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>{i % 2 === 0 ? piece : parts[Number(piece)]}</Fragment>
      ))}
    </>
  );
}
