import { t } from '../../base/i18n.ts';

/** One parameter of a tool, read from its JSON Schema, for display and for building a form. */
export interface SchemaField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'unknown';
  required: boolean;
  description?: string;
  format?: string;
  options?: string[];
}

const asRecord = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function enumOptions(prop: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(prop.enum)) return prop.enum.map(String);
  const variants = Array.isArray(prop.anyOf) ? prop.anyOf : Array.isArray(prop.oneOf) ? prop.oneOf : undefined;
  const consts = variants?.map((v) => asRecord(v)?.const).filter((c) => c !== undefined);
  return consts && consts.length ? consts.map(String) : undefined;
}

export function schemaFields(schema: Record<string, unknown>): SchemaField[] {
  const properties = asRecord(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([name, raw]) => {
    const prop = asRecord(raw) ?? {};
    const declared = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
    const type = (['string', 'number', 'integer', 'boolean', 'object', 'array'] as const).find((t) => t === declared) ?? 'unknown';
    const options = enumOptions(prop);
    return {
      name,
      type,
      required: required.has(name),
      ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
      ...(typeof prop.format === 'string' ? { format: prop.format } : {}),
      ...(options ? { options } : {}),
    };
  });
}

/**
 * Turns what a person typed into the tool's input: empty optional fields are left out, numbers
 * and booleans converted, objects and arrays parsed as JSON. Errors name the field.
 */
export function inputFromForm(fields: SchemaField[], values: Record<string, string>): { input: Record<string, unknown> } | { error: string } {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? '';
    if (raw === '' && field.type !== 'boolean') continue;
    switch (field.type) {
      case 'number':
      case 'integer': {
        const n = Number(raw);
        if (!Number.isFinite(n)) return { error: t('tools_must_be_number', field.name) };
        input[field.name] = n;
        break;
      }
      case 'boolean':
        if (raw !== '') input[field.name] = raw === 'true';
        break;
      case 'object':
      case 'array':
      case 'unknown':
        try {
          input[field.name] = JSON.parse(raw);
        } catch {
          if (field.type === 'unknown') input[field.name] = raw;
          else return { error: t('tools_must_be_json', field.name, field.type) };
        }
        break;
      default:
        input[field.name] = raw;
    }
  }
  return { input };
}
