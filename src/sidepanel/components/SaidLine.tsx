import { SaidRecord } from './SaidRecord.tsx';
import type { ComponentChildren } from 'preact';
import type { Phrase } from '../../protocol/phrase.ts';
import { saidWithRecord } from '../lib/phrases.ts';

/**
 * A sentence the service worker wrote, in the person's language (its phrase), with the worker's own
 * English record one click away where that says more (lib/phrases.ts); the English alone when the
 * panel cannot say it.
 */
export function SaidLine({ class: cls, label, phrase, english, role }: { class: string; label?: ComponentChildren; phrase: Phrase | undefined; english: string; role?: 'alert' | 'status' }) {
  const { words, record } = saidWithRecord(phrase, english);
  return (
    <>
      <p class={cls} {...(role ? { role } : {})}>
        {label}
        {label ? ' ' : ''}
        {words}
      </p>
      <SaidRecord record={record} />
    </>
  );
}
