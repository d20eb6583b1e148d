import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatLocale, t, useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource } from '../catalogue-source.ts';
import { ApprovalRequest } from '../../../src/protocol/approval.ts';
import { cardWords } from '../../../src/sidepanel/lib/approval-words.ts';
import { countdown } from '../../../src/sidepanel/lib/time.ts';
import { explainConflict } from '../../../src/sidepanel/lib/conflicts.ts';
import { said } from '../../../src/sidepanel/lib/phrases.ts';
import { phrase } from '../../../src/protocol/phrase.ts';

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The panel in two languages (issue 30.5): both catalogues hold the same messages with the same
 * placeholders, the Vietnamese one is written (not English copied over), and the side panel's
 * components take their words from the catalogue, not from English typed into their JSX.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const Catalogue = z.record(
  z.string().regex(/^[A-Za-z0-9_]+$/, 'Chrome’s message names: letters, digits and _'),
  z.strictObject({
    message: z.string().min(1),
    description: z.string().optional(),
    placeholders: z.record(z.string(), z.strictObject({ content: z.string(), example: z.string().optional() })).optional(),
  }),
);
const load = (lang: string) => Catalogue.parse(JSON.parse(readFileSync(join(ROOT, 'public/_locales', lang, 'messages.json'), 'utf8')));
const en = load('en');
const vi = load('vi');

/** `$NAME$` references in a message, lower-cased (Chrome matches them case-insensitively). */
const used = (message: string) => new Set([...message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)].map((m) => m[1]!.toLowerCase()));

describe('the catalogues', () => {
  it('name the same messages in English and Vietnamese', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(en).sort());
  });

  it('give Vietnamese every placeholder English has, filled from the same substitution', () => {
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(en)) {
      const other = vi[key];
      if (!other) continue;
      for (const [name, { content }] of Object.entries(entry.placeholders ?? {})) {
        if (other.placeholders?.[name]?.content !== content) problems.push(`${key}: vi lacks placeholder ${name} (${content})`);
        if (!used(other.message).has(name.toLowerCase())) problems.push(`${key}: vi's message never says $${name.toUpperCase()}$`);
      }
      for (const [lang, e] of [['en', entry] as const, ['vi', other] as const]) {
        const declared = new Set(Object.keys(e.placeholders ?? {}).map((n) => n.toLowerCase()));
        for (const name of used(e.message)) if (!declared.has(name)) problems.push(`${key}: ${lang} says $${name}$ but declares no such placeholder`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('are translated: a Vietnamese message equals the English one only for names that stay as they are', () => {
    const same = Object.keys(en).filter((key) => en[key]!.message === vi[key]?.message && !/\p{L}{2,}/u.test(en[key]!.message.replace(/\$[A-Z0-9_]+\$/g, '')) === false);
    expect(same.sort()).toEqual(['evidence_canvas', 'evidence_url', 'evidence_webmcp', 'ext_name', 'marked_by_legacy_inference', 'path_label_webmcp']);
  });

  it('type their keys: a key the English catalogue lacks does not compile', () => {
    useMessageSource(catalogueSource(en, 'en-US'));
    // @ts-expect-error — no such message: tsc (npm run typecheck) fails if this ever compiles.
    expect(t('no_such_message')).toBe('no_such_message');
  });
});

describe('the panel in Vietnamese', () => {
  const request = ApprovalRequest.parse({
    request_id: 'apreq_0123456789abcdef0123456789abcdef',
    agent_id: 'agent:mcp-claude',
    agent_name: 'Claude Desktop',
    token_id: 'tok_0123456789abcdef0123456789abcdef',
    origin: 'http://shop.localhost:4100',
    action: 'dom.click',
    target: 'button “Cancel order”',
    via: 'legacy_inference',
    resource: { type: 'order', id: 'ORD-1023' },
    resource_identity: { certainty: 'identified', basis: 'URL path' },
    input: { ref: 'e12' },
    input_hash: 'sha256:' + 'a'.repeat(64),
    idempotency_key: 'click-1',
    state: { state: 'awaiting_payment', state_version: 'fp-031bb0', source: 'legacy_inference', evidence: ['dom'], confidence: 0.7, conflicts: [], observed_at: '2026-12-06T10:00:00.000Z' },
    reasons: [{ code: 'payment' }, { code: 'not_read_only' }],
    requested_at: '2026-12-06T10:00:00.000Z',
    expires_at: '2026-12-06T10:05:00.000Z',
  });

  it('says an approval card in Vietnamese, the agent’s and the page’s own names unchanged', () => {
    useMessageSource(catalogueSource(vi, 'vi'));
    const w = cardWords(request);
    expect(w.headline).toBe('Nhấn button “Cancel order” (order ORD-1023) trên shop.localhost:4100, do Claude Desktop yêu cầu');
    expect(w.facts.map((f) => f.text)).toEqual(['Thao tác này chuyển tiền.']);
    expect(w.otherReasons).toEqual(['Thao tác này thay đổi một thứ trên trang web.']);
    expect(countdown(2 * 3600_000 + 10 * 60_000)).toBe('2 giờ 10 phút');
  });

  it('says a reason’s own detail, why no period may be approved and what the page’s state leaves in doubt in Vietnamese', () => {
    useMessageSource(catalogueSource(vi, 'vi'));
    const form = ApprovalRequest.parse({
      ...request,
      reasons: [{ code: 'form_submission', detail: 'submits the form “Checkout”', detail_said: phrase('reason_submits_form', { form: 'Checkout' }) }],
      window: { offered: false, why_not: 'it is approved one at a time: it touches money', why_not_said: phrase('window_excluded', { reason: 'payment' }) },
    });
    expect(cardWords(form).facts.map((f) => f.text)).toEqual(['Gửi biểu mẫu “Checkout”.']);
    expect(said(form.window!.offered ? undefined : form.window!.why_not_said, '')).toBe('thao tác này được phê duyệt từng lần một: nó liên quan đến tiền');
    expect(explainConflict('dom_state_disagrees_with_network')).toBe(
      `${capitalised(vi.evidence_dom!.message)} và ${vi.evidence_network!.message} không khớp nhau về state; Steward không chắc bên nào đúng.`,
    );
    expect(explainConflict('hidden_interactive_elements')).toBe(vi.conflict_hidden_interactive_elements!.message);
    useMessageSource(catalogueSource(en, 'en-US'));
    expect(cardWords(form).facts.map((f) => f.text)).toEqual(['Submits the form “Checkout”.']);
    expect(explainConflict('dom_state_disagrees_with_network')).toBe('The page structure and the network responses disagree about the state; Steward is not sure which is right.');
  });

  it('names the control’s role in Steward’s Vietnamese word for it, the page’s name for it unchanged', () => {
    useMessageSource(catalogueSource(vi, 'vi'));
    const withRole = ApprovalRequest.parse({
      ...request,
      target_said: phrase('element', { role: 'button', name: 'Cancel order' }),
      prior_step: { action: 'dom.click', target: 'button “Delete note”', target_said: phrase('element', { role: 'button', name: 'Delete note' }), at: '2026-12-06T09:59:00.000Z' },
    });
    expect(cardWords(withRole).headline).toBe('Nhấn nút “Cancel order” (order ORD-1023) trên shop.localhost:4100, do Claude Desktop yêu cầu');
    expect(cardWords(withRole).facts.map((f) => f.text)).toContain(
      'Thao tác này trả lời điều trang hỏi sau bước trước đó của tác tử, dom.click trên nút “Delete note”. Cả hai đều là của tác tử: bước kiểm tra của trang vốn dành cho bạn.',
    );
    useMessageSource(catalogueSource(en, 'en-US'));
    expect(cardWords(withRole).headline).toBe('Press button “Cancel order” (order ORD-1023) on shop.localhost:4100, asked by Claude Desktop');
  });

  it('and the same card in English as before', () => {
    useMessageSource(catalogueSource(en, 'en-US'));
    expect(cardWords(request).headline).toBe('Press button “Cancel order” (order ORD-1023) on shop.localhost:4100, asked by Claude Desktop');
  });
});

/**
 * Components that still show English typed into their JSX (issue 30.5: the goal is an empty list).
 * A component listed here that no longer has any fails the test too, so the list stays true.
 */
const NOT_YET_TRANSLATED = new Set<string>([]);

/** Names said the same in every language. */
const NAMES = /\b(Steward|WebMCP|MCP|OpenAI|Anthropic|Chrome|Chromium|Claude Desktop|Claude Code|Cursor|VS Code|Windsurf|Codex|URL|JSON|API|ID)\b/g;
/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'label', 'aria-roledescription', 'aria-valuetext']);
/** Elements whose text is code or a command, the same in every language. */
const CODE_ELEMENTS = new Set(['code', 'kbd', 'samp']);

const isWords = (text: string) => /\p{L}{2,}/u.test(text.replace(NAMES, ''));

/** `a && 'text'`, `a || 'text'`, `a ?? 'text'` show an operand; `a === 'loaded'` shows none. */
const SHOWS_AN_OPERAND = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

/** English typed into a component's JSX: text, read attributes, and string literals a JSX expression shows as they are. */
function typedWords(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const literals = (e: ts.Expression): void => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) {
      if (isWords(e.text)) found.push(e.text);
    } else if (ts.isTemplateExpression(e)) {
      const text = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
      if (isWords(text)) found.push(text);
    } else if (ts.isConditionalExpression(e)) {
      literals(e.whenTrue);
      literals(e.whenFalse);
    } else if (ts.isBinaryExpression(e) && SHOWS_AN_OPERAND.has(e.operatorToken.kind)) {
      literals(e.left);
      literals(e.right);
    } else if (ts.isParenthesizedExpression(e)) literals(e.expression);
  };
  const inCode = (node: ts.Node) => {
    const parent = node.parent;
    return ts.isJsxElement(parent) && CODE_ELEMENTS.has(parent.openingElement.tagName.getText());
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && !inCode(node) && isWords(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) {
        if (isWords(node.initializer.text)) found.push(node.initializer.text);
      } else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) literals(node.initializer.expression);
    }
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) && !inCode(node)) literals(node.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the side panel’s components', () => {
  const dir = join(ROOT, 'src/sidepanel/components');
  const components = readdirSync(dir).filter((f) => f.endsWith('.tsx'));

  it('take every word a person reads from the catalogue', () => {
    const typed = components.filter((f) => !NOT_YET_TRANSLATED.has(f)).flatMap((f) => typedWords(join(dir, f)).map((text) => `${f}: ${text}`));
    expect(typed).toEqual([]);
  });

  it('list as not yet translated only components that still have English in them', () => {
    expect([...NOT_YET_TRANSLATED].filter((f) => !components.includes(f) || typedWords(join(dir, f)).length === 0)).toEqual([]);
  });
});

/** A sentence of three words or more typed into a string: what a person would read if it reached the panel. */
const SENTENCE = /\b[A-Za-z]{2,}\b(\s+\b[A-Za-z’']{2,}\b){2,}/;

/** String literals in a store or word file that read as English sentences, outside imports and console messages (for developers). */
function typedSentences(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const forDevelopers = (node: ts.Node): boolean => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if (ts.isImportDeclaration(n)) return true;
      if (ts.isCallExpression(n) && /^console\./.test(n.expression.getText())) return true;
    }
    return false;
  };
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' … ');
    if (text !== undefined && SENTENCE.test(text) && !forDevelopers(node)) found.push(text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the side panel’s stores and word files', () => {
  const dirs = [join(ROOT, 'src/sidepanel'), join(ROOT, 'src/sidepanel/lib')];
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f)),
  );

  it('type no English sentence: what they show comes from the catalogue (or the worker’s phrases)', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => typedSentences(f).map((text) => `${f.slice(ROOT.length + 1)}: ${text}`))).toEqual([]);
  });
});

describe('the locale of numbers, dates and times', () => {
  it('is the browser’s when the words are in its language, else the language of the words the person reads', () => {
    expect(formatLocale('en-GB', 'en')).toBe('en-GB');
    expect(formatLocale('vi', 'vi')).toBe('vi');
    // Chromium on Linux reports en-US under --lang=vi while it gives the Vietnamese catalogue: the times follow the words.
    expect(formatLocale('en-US', 'vi')).toBe('vi');
    expect(new Date(Date.UTC(2026, 0, 1, 17, 26)).toLocaleTimeString(formatLocale('en-US', 'vi'), { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })).toBe('17:26');
    // A catalogue that names no language leaves the browser's.
    expect(formatLocale('en-US', '')).toBe('en-US');
  });
});
