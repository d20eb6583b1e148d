import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import { blocksAfterHeading, labelledValues } from '../read/page-text.ts';
import { canonicalState } from '../read/states.ts';
import { parseCount, parseDate, parseMoney } from '../read/values.ts';
import { isObject, readString } from '../read/json-read.ts';
import type { ElementMatcher, ValueRule, ValueSource } from './format.ts';

/** Evaluates one adapter value rule against a snapshot: find the text, then interpret it. */

export interface RawReading {
  text: string;
  ref?: string;
  /** Where it came from, for the claim's explanation. */
  where: string;
}

export function findElement(elements: readonly SnapshotElement[], m: ElementMatcher): SnapshotElement | undefined {
  const re = m.name_pattern ? new RegExp(m.name_pattern, 'i') : undefined;
  const wanted = m.name?.trim().toLowerCase();
  return elements.find((e) => e.role === m.role && (wanted !== undefined ? cleanText(e.name).toLowerCase() === wanted : re!.test(e.name)));
}

function jsonLdValue(snapshot: PageSnapshot, type: string | undefined, path: string): string | undefined {
  const block = snapshot.structuredData.find((d) => !type || d.type === type || d.data['@type'] === type);
  let value: unknown = block?.data;
  for (const key of path.split('.')) {
    if (Array.isArray(value)) value = value[0];
    value = isObject(value) ? value[key] : undefined;
  }
  if (isObject(value)) value = value['@id'] ?? value.name;
  return readString(value);
}

function locate(source: ValueSource, snapshot: PageSnapshot, elements: readonly SnapshotElement[], groups: Record<string, string>): RawReading | undefined {
  switch (source.from) {
    case 'const':
      return { text: source.value, where: 'constant' };
    case 'url_group': {
      const v = groups[source.group];
      return v === undefined ? undefined : { text: v, where: `URL group ${source.group}` };
    }
    case 'json_ld': {
      const v = jsonLdValue(snapshot, source.type, source.path);
      return v === undefined ? undefined : { text: v, where: `JSON-LD ${source.type ?? ''} ${source.path}`.replace(/\s+/g, ' ') };
    }
    case 'label': {
      const wanted = source.label.toLowerCase();
      const l = labelledValues(snapshot.texts).find((x) => x.label.toLowerCase() === wanted);
      return l ? { text: l.value, ...(l.ref ? { ref: l.ref } : {}), where: `label "${source.label}"` } : undefined;
    }
    case 'after_heading': {
      const re = new RegExp(source.heading, 'i');
      const h = snapshot.texts.findIndex((t) => t.role === 'heading' && re.test(t.text));
      const next = h >= 0 ? blocksAfterHeading(snapshot.texts, h, 1)[0] : undefined;
      return next ? { text: next.block.text, ...(next.block.ref ? { ref: next.block.ref } : {}), where: 'text after the heading' } : undefined;
    }
    case 'text': {
      const re = new RegExp(source.pattern, 'i');
      for (const t of snapshot.texts) {
        const m = re.exec(t.text);
        if (m) return { text: m[1] ?? m[0], ...(t.ref ? { ref: t.ref } : {}), where: 'page text' };
      }
      return undefined;
    }
    case 'element': {
      const e = findElement(elements, source.element);
      const v = e ? (source.read === 'name' ? e.name : e.value) : undefined;
      return e && v !== undefined ? { text: v, ref: e.ref, where: `${e.role} "${e.name.slice(0, 60)}"` } : undefined;
    }
  }
}

/** The rule's `map` first (exact, then case-insensitive); unmapped text is not read when a map exists. */
function mapped(rule: ValueRule, text: string): string | undefined {
  if (!rule.map) return text;
  const t = cleanText(text);
  if (t in rule.map) return rule.map[t];
  const key = Object.keys(rule.map).find((k) => k.toLowerCase() === t.toLowerCase());
  return key === undefined ? undefined : rule.map[key];
}

function interpret(rule: ValueRule, text: string): string | number | undefined {
  const value = mapped(rule, text);
  if (value === undefined) return undefined;
  switch (rule.kind) {
    case 'state':
      return canonicalState(value);
    case 'money':
      return parseMoney(value) ?? (/^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined);
    case 'date':
      return parseDate(value);
    case 'count':
      return parseCount(value);
    case 'text': {
      const t = cleanText(value).slice(0, 4096);
      return t === '' ? undefined : t;
    }
  }
}

export function readValue(rule: ValueRule, snapshot: PageSnapshot, elements: readonly SnapshotElement[], groups: Record<string, string>) {
  const raw = locate(rule.read, snapshot, elements, groups);
  if (!raw) return undefined;
  const value = interpret(rule, raw.text);
  return value === undefined ? { raw, value: undefined } : { raw, value };
}
