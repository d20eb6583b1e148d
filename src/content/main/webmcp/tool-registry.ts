/**
 * One document's registered WebMCP tools, as the polyfill keeps them: what `registerTool` was given
 * (checked and copied), to whom each tool is exposed, and the listing `getTools()` returns, in the
 * shape Chrome's native API returns it (the input schema as JSON text, the registering origin and
 * window). No DOM here: the frame walk and the events are the callers'.
 */

export interface ToolEntry {
  name: string;
  title: string;
  description: string;
  /** The input schema as JSON text, as Chrome lists it; undefined when the tool declared none. */
  inputSchema: string | undefined;
  annotations: Record<string, boolean> | undefined;
  /** Origins besides the document's own that may list and run the tool (`registerTool`'s `exposedTo`). */
  exposedTo: readonly string[];
  execute: (input: unknown, options: { signal: AbortSignal; invocation: unknown }) => unknown;
}

/** What `getTools()` returns for one tool (Chrome's RegisteredTool). */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema?: string;
  annotations?: Record<string, boolean>;
  origin: string;
  window: unknown;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/u;
/** The annotations Chrome reports; each is a boolean (readOnlyHint and untrustedContentHint default to false once any is given). */
const REPORTED_HINTS = ['readOnlyHint', 'untrustedContentHint'] as const;
const OPTIONAL_HINTS = ['consequentialHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'debugging'] as const;

const invalidState = (message: string) => new DOMException(message, 'InvalidStateError');

function annotationsOf(raw: unknown): Record<string, boolean> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object') throw new TypeError('Tool "annotations" must be an object');
  const source = raw as Record<string, unknown>;
  const hints: Record<string, boolean> = {};
  for (const key of REPORTED_HINTS) hints[key] = Boolean(source[key]);
  for (const key of OPTIONAL_HINTS) if (source[key] !== undefined) hints[key] = Boolean(source[key]);
  return hints;
}

function schemaText(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object') throw new TypeError('Tool "inputSchema" must be an object');
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    throw new TypeError('Tool "inputSchema" must be JSON');
  }
  if (text === undefined) throw new TypeError('Tool "inputSchema" must be JSON');
  return text;
}

/**
 * A page's tool dictionary read once, member by member (a getter runs once, as WebIDL reads a
 * dictionary), and checked as the polyfill always did: a missing member is a TypeError, an
 * empty or malformed name or description an InvalidStateError.
 */
export function toolEntry(tool: unknown, exposedTo: readonly string[]): ToolEntry {
  if (tool === null || typeof tool !== 'object') throw new TypeError('registerTool(tool) requires a tool object');
  const t = tool as Record<string, unknown>;
  const name = t.name;
  const description = t.description;
  if (name === undefined) throw new TypeError('Tool "name" is required');
  if (description === undefined) throw new TypeError('Tool "description" is required');
  const title = t.title;
  const inputSchema = schemaText(t.inputSchema);
  const annotations = annotationsOf(t.annotations);
  const execute = t.execute;
  if (typeof execute !== 'function') throw new TypeError('Tool "execute" must be a function');
  const entry: ToolEntry = {
    name: String(name),
    title: title === undefined ? '' : String(title),
    description: String(description),
    inputSchema,
    annotations,
    exposedTo,
    execute: (input, options) => Reflect.apply(execute, undefined, [input, options]),
  };
  if (!TOOL_NAME.test(entry.name)) throw invalidState('Tool "name" must be 1–128 characters of ASCII letters, digits, "_", "-" or "."');
  if (entry.description === '') throw invalidState('Tool "description" must be a non-empty string');
  return entry;
}

/** Whether a URL's origin is potentially trustworthy (https, wss, localhost, loopback, file). */
function trustworthy(origin: URL): boolean {
  if (origin.protocol === 'https:' || origin.protocol === 'wss:' || origin.protocol === 'file:') return true;
  const host = origin.hostname;
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

/**
 * `exposedTo` / `fromOrigins` as origins. Each must parse as a URL of a potentially trustworthy
 * origin (a TypeError otherwise, before anything is registered); an absent list is empty.
 */
export function originList(raw: unknown, member: string): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || typeof (raw as Iterable<unknown>)[Symbol.iterator] !== 'function') throw new TypeError(`"${member}" must be a sequence of origins`);
  const origins: string[] = [];
  for (const item of raw as Iterable<unknown>) {
    let url: URL;
    try {
      url = new URL(String(item));
    } catch {
      throw new TypeError(`"${member}" has an entry that is not a URL: ${String(item).slice(0, 200)}`);
    }
    if (url.origin === 'null' || !trustworthy(url)) throw new TypeError(`"${member}" has an origin that is not potentially trustworthy: ${url.origin}`);
    origins.push(url.origin);
  }
  return origins;
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolEntry>();

  /** Registers the entry; a name already registered here is an InvalidStateError. */
  add(entry: ToolEntry): void {
    if (this.tools.has(entry.name)) throw invalidState(`Tool already registered: ${entry.name}`);
    this.tools.set(entry.name, entry);
  }

  /** The registration of that name, whoever may see it. */
  named(name: string): ToolEntry | undefined {
    return this.tools.get(name);
  }

  /** Removes exactly this registration (not a later one of the same name); whether it was there. */
  remove(entry: ToolEntry): boolean {
    if (this.tools.get(entry.name) !== entry) return false;
    return this.tools.delete(entry.name);
  }

  /** The tool of that name a caller of `callerOrigin` may run here, if any. */
  find(name: string, ownOrigin: string, callerOrigin: string): ToolEntry | undefined {
    const entry = this.tools.get(name);
    return entry && visible(entry, ownOrigin, callerOrigin) ? entry : undefined;
  }

  /** What `getTools()` lists of this document's tools to a caller of `callerOrigin`, by name. */
  list(ownOrigin: string, ownWindow: unknown, callerOrigin: string): ListedTool[] {
    return [...this.tools.values()]
      .filter((entry) => visible(entry, ownOrigin, callerOrigin))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((entry) => ({
        name: entry.name,
        title: entry.title,
        description: entry.description,
        ...(entry.inputSchema === undefined ? {} : { inputSchema: entry.inputSchema }),
        ...(entry.annotations ? { annotations: { ...entry.annotations } } : {}),
        origin: ownOrigin,
        window: ownWindow,
      }));
  }
}

/** Same-origin callers always; other origins only those the tool was exposed to. */
function visible(entry: ToolEntry, ownOrigin: string, callerOrigin: string): boolean {
  return callerOrigin === ownOrigin || entry.exposedTo.includes(callerOrigin);
}
