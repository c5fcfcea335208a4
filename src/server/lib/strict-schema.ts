// Unknown fields and query parameters are refused, never silently dropped: a mistyped
// filter (`?colour=blue`) or field answers 400 naming it. The request schemas in src/contracts
// stay as the web app's forms use them; the API makes them strict at its edge, for every route,
// here, so the validation and the published document (`additionalProperties: false`) agree.
import { z } from 'zod';

type AnySchema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

function defOf(schema: AnySchema): Def {
  return schema._zod.def as unknown as Def;
}

function clone(schema: AnySchema, def: Def): AnySchema {
  return (schema as unknown as { clone(def: unknown): AnySchema }).clone(def);
}

/** The schema with every object in it (through unions, wrappers, arrays and pipes) strict. */
export function strictSchema<T extends AnySchema>(schema: T): T {
  return strict(schema) as T;
}

function strict(schema: AnySchema): AnySchema {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = (schema as unknown as { shape: Record<string, AnySchema> }).shape;
      const strictShape = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, strict(value)]));
      // A catch-all the schema chose itself (passthrough, a record of extras) is left alone.
      const catchall = def.catchall === undefined ? z.never() : def.catchall;
      return clone(schema, { ...def, shape: strictShape, catchall });
    }
    case 'union':
      return clone(schema, { ...def, options: (def.options as AnySchema[]).map(strict) });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return clone(schema, { ...def, innerType: strict(def.innerType as AnySchema) });
    case 'array':
      return clone(schema, { ...def, element: strict(def.element as AnySchema) });
    case 'pipe':
      return clone(schema, { ...def, in: strict(def.in as AnySchema) });
    case 'intersection':
      // Each side of an intersection sees the other's keys as unknown: strict would refuse every value.
      return schema;
    default:
      return schema;
  }
}

/** The names an `unrecognized_keys` issue lists, when the first such issue is one. */
export function unknownKeysOf(issues: ReadonlyArray<{ keyword?: string; instancePath?: string; params?: { keys?: unknown } }>): string[] | null {
  const issue = issues.find((candidate) => candidate.keyword === 'unrecognized_keys');
  if (!issue || !Array.isArray(issue.params?.keys)) return null;
  const prefix = (issue.instancePath ?? '/').replace(/^\//, '').replace(/\//g, '.');
  return issue.params.keys.map((key) => (prefix ? `${prefix}.${String(key)}` : String(key)));
}
