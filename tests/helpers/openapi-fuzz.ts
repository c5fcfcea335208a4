import type { FastifyInstance, InjectOptions } from 'fastify';
import fc from 'fast-check';

// Hostile requests generated from the OpenAPI document, for the fuzz suite. Every request the
// generator builds carries at least one defect that the API must refuse (a body that breaks its
// schema, another user's or a made-up id, no session, a cross-site Origin, an oversized body), so
// a 2xx on a state-changing method is itself a finding. The generator is seeded: a failure names
// its seed and case number and reproduces exactly.

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  default?: unknown;
  minItems?: number;
  maxItems?: number;
};

type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema: JsonSchema };
export type DocumentedResponse = { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean; schema?: JsonSchema }> };
export type Operation = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, DocumentedResponse>;
};
type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: Array<Record<string, string[]>>;
        responses?: Record<string, DocumentedResponse>;
      }
    >
  >;
};

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
        operationId: operation.operationId,
        security: operation.security,
        responses: operation.responses ?? {},
      });
    }
  }
  return operations;
}

// ---- A seeded PRNG (mulberry32): small, fast and the same on every machine ----------------------

export type Random = {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
};

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as T;
    },
    chance: (probability) => next() < probability,
  };
}

// ---- Hostile values ------------------------------------------------------------------------------

export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; select pg_sleep(10) --",
  "\\'; update users set subscription='premium+' --",
  '"><script>alert(1)</script>',
  '<img src=x onerror=alert(document.cookie)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}<%= 7*7 %>',
  '../../../../etc/passwd',
  '%00%0d%0aSet-Cookie: pw_session=evil',
  'nul\u0000byte',
  '\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x7fffffff',
  '１００', // full-width digits
  '١٢٣٫٤٥', // Arabic-Indic digits and decimal separator
  '💳💸🏦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͓',
  '\u202Eevil\u202C',
  '\uFEFF100',
  '\ud800lone surrogate',
  ' 100 ',
  '100.001',
  '-100',
  '1,000.00',
  '$100',
  '1e3',
  '99999999999999999999999',
  '0.005',
  '\r\n\t',
  '',
  'A'.repeat(10_000),
  "o'reilly+<b>@example.com",
  'admin@payweave.example',
];

const HOSTILE_NUMBERS: readonly number[] = [-1, -100, 0.5, 1.005, -0.01, 1e15, 2 ** 53, -(2 ** 53), 1e300, -1e300, 5_000_001, 2_147_483_648];
// Raw JSON number texts JSON.stringify cannot produce (they parse to Infinity or lose precision).
const RAW_NUMBER_TEXTS: readonly string[] = ['1e400', '-1e400', '123456789012345678901234567890', '1.0000000000000000001', '1E+2', '-0'];

/** Marks a raw JSON text to splice into the serialised body in place of a value. */
export class RawJson {
  constructor(readonly text: string) {}
}

export function serialiseBody(value: unknown): string {
  const raws: string[] = [];
  const json = JSON.stringify(value, (_key, current: unknown) => {
    if (current instanceof RawJson) {
      raws.push(current.text);
      return `__RAW_JSON_${raws.length - 1}__`;
    }
    return current;
  });
  return (json ?? 'null').replace(/"__RAW_JSON_(\d+)__"/g, (_match, index: string) => raws[Number(index)] ?? 'null');
}

/** Bodies that are not a JSON object, or not JSON at all, sent as application/json. */
export const HOSTILE_RAW_BODIES: readonly string[] = [
  '',
  ' ',
  '{',
  '{"a":',
  "{'single':'quotes'}",
  '{"a":1,}',
  'null',
  'true',
  '42',
  '"a string"',
  '[]',
  '[{"type":"credit"}]',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":1e400}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `{"a":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`,
  'NaN',
  '<xml><a>1</a></xml>',
  'a=1&b=2',
];

export const WRONG_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'application/jsonx',
  'image/png',
];

// ---- A small JSON Schema checker --------------------------------------------------------------
// Only for the subset the API's schemas use. It must never call a value valid that the server's zod
// schema refuses... and it need not: it is used the other way round, to keep only mutations that
// are certainly invalid (zod may refuse more, never less, than its JSON Schema says).

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof RawJson) return 'raw';
  return typeof value;
}

/** Whether `value` satisfies `schema`; RawJson texts are judged by what JSON.parse makes of them. */
export function satisfies(schema: JsonSchema, value: unknown): boolean {
  if (value instanceof RawJson) {
    const parsed = JSON.parse(value.text) as unknown;
    // Texts that overflow are refused by zod's finite check, unsafe integers by its int check.
    if (typeof parsed === 'number' && !Number.isFinite(parsed) && (schema.type === 'integer' || schema.type === 'number')) return false;
    if (typeof parsed === 'number' && !Number.isSafeInteger(parsed) && schema.type === 'integer') return false;
    return satisfies(schema, parsed);
  }
  if (schema.oneOf) return schema.oneOf.some((branch) => satisfies(branch, value));
  if (schema.anyOf) return schema.anyOf.some((branch) => satisfies(branch, value));
  if (schema.const !== undefined && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = typeOf(value);
  if (types) {
    const ok = types.some((type) => (type === 'integer' ? actual === 'number' && Number.isSafeInteger(value) : type === actual));
    if (!ok) return false;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    if (schema.minimum !== undefined && (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum)) return false;
    if (schema.maximum !== undefined && (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum)) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  }
  if (typeof value === 'string') {
    // zod counts UTF-16 code units; a JSON Schema reader may count code points: only a string
    // too short or too long by both counts is called invalid.
    const codePoints = [...value].length;
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    if (schema.maxLength !== undefined && value.length > schema.maxLength && codePoints > schema.maxLength) return false;
    if (schema.format === 'uuid' && !UUID_PATTERN.test(value)) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  }
  if (actual === 'object' && schema.properties) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in record) || record[name] === undefined) return false;
    for (const [name, propertySchema] of Object.entries(schema.properties)) {
      if (name in record && record[name] !== undefined && !satisfies(propertySchema, record[name])) return false;
    }
  }
  return true;
}

// ---- Examples and breakages --------------------------------------------------------------------

export type FuzzContext = {
  random: Random;
  /** Ids that belong to another user (A), by kind, plus made-up ones. */
  foreignIds: readonly string[];
  /** Values for well-known field names, so well-formed bodies look like real ones. */
  fieldExamples: Readonly<Record<string, () => unknown>>;
};

/** A value that satisfies `schema` (when the schema allows one), with realistic field values. */
export function exampleFor(schema: JsonSchema, context: FuzzContext, fieldName?: string): unknown {
  const { random } = context;
  if (schema.oneOf) return exampleFor(random.pick(schema.oneOf), context, fieldName);
  if (schema.anyOf) return exampleFor(random.pick(schema.anyOf), context, fieldName);
  if (schema.enum) return random.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const override = fieldName ? context.fieldExamples[fieldName] : undefined;
  if (override) {
    const value = override();
    if (satisfies(schema, value)) return value;
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) result[name] = exampleFor(propertySchema, context, name);
      return result;
    }
    case 'array':
      return schema.items ? [exampleFor(schema.items, context)] : [];
    case 'integer':
    case 'number': {
      const low = schema.minimum === undefined ? 1 : schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0);
      const high = schema.maximum ?? low + 10_000;
      return Math.min(high, Math.max(low, 100 + random.int(10_000)));
    }
    case 'boolean':
      return random.chance(0.5);
    case 'string': {
      if (schema.format === 'uuid') return random.pick(context.foreignIds);
      const text = 'fuzz-value';
      return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length);
    }
    default:
      return {};
  }
}

const ALL_TYPES_VALUES: readonly (() => unknown)[] = [
  () => null,
  () => true,
  () => false,
  () => 0,
  () => -1,
  () => 1.5,
  () => 'not-the-right-type',
  () => [],
  () => [1, 2, 3],
  () => ({}),
  () => ({ $gt: '' }),
];

/** Candidate replacements for a value of `schema`: wrong types, out-of-range and hostile values. */
function candidateReplacements(schema: JsonSchema, context: FuzzContext): unknown[] {
  const { random } = context;
  const candidates: unknown[] = ALL_TYPES_VALUES.map((make) => make());
  candidates.push(...HOSTILE_NUMBERS, ...RAW_NUMBER_TEXTS.map((text) => new RawJson(text)));
  candidates.push(random.pick(HOSTILE_STRINGS), random.pick(HOSTILE_STRINGS), random.pick(context.foreignIds));
  if (schema.maxLength !== undefined) candidates.push('x'.repeat(schema.maxLength + 1), random.pick(HOSTILE_STRINGS).padEnd(schema.maxLength + 1, '\u0000'));
  if (schema.minimum !== undefined) candidates.push(schema.minimum - 1, schema.minimum - 0.5, schema.minimum);
  if (schema.maximum !== undefined) candidates.push(schema.maximum + 1, schema.maximum + 0.25);
  if (schema.enum) candidates.push(...schema.enum.map((member) => (typeof member === 'string' ? member.toUpperCase() + ' ' : member)));
  return candidates;
}

export type BrokenBody = { body: unknown; defect: string };

/**
 * Breaks a valid body so that it certainly fails `schema`: a required field removed, or a field
 * (possibly nested) replaced by a value of the wrong type or out of range. Other string fields may
 * also receive hostile strings. Returns undefined when the schema accepts anything.
 */
export function breakBody(schema: JsonSchema, valid: unknown, context: FuzzContext): BrokenBody | undefined {
  const { random } = context;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const body = structuredCloneWithRaw(valid);
    let defect = '';
    if (typeOf(body) !== 'object' || random.chance(0.1)) {
      const replacement = random.pick(ALL_TYPES_VALUES)();
      if (!satisfies(schema, replacement)) return { body: replacement, defect: `body replaced by ${describe(replacement)}` };
      continue;
    }
    const record = body as Record<string, unknown>;
    const branch = schema.oneOf ? schema.oneOf.find((candidate) => satisfies(candidate, valid)) ?? schema.oneOf[0] : schema;
    const properties = Object.entries(branch?.properties ?? {});
    const required = branch?.required ?? [];
    if (required.length > 0 && random.chance(0.25)) {
      const name = random.pick(required);
      delete record[name];
      defect = `required field ${name} removed`;
    } else if (properties.length > 0) {
      const [name, propertySchema] = random.pick(properties);
      const nested = record[name];
      if (propertySchema.type === 'object' && typeOf(nested) === 'object' && random.chance(0.5)) {
        const brokenNested = breakBody(propertySchema, nested, context);
        if (brokenNested) {
          record[name] = brokenNested.body;
          defect = `${name}: ${brokenNested.defect}`;
        }
      } else {
        const replacement = random.pick(candidateReplacements(propertySchema, context));
        record[name] = replacement;
        defect = `${name} = ${describe(replacement)}`;
      }
    }
    if (!defect) continue;
    // Hostile strings in the other string fields, so they travel with the defect.
    for (const [name, value] of Object.entries(record)) {
      if (typeof value === 'string' && random.chance(0.3) && !defect.startsWith(`${name} `)) record[name] = random.pick(HOSTILE_STRINGS);
    }
    if (!satisfies(schema, body)) return { body, defect };
  }
  return undefined;
}

function structuredCloneWithRaw(value: unknown): unknown {
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(structuredCloneWithRaw);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, structuredCloneWithRaw(inner)]));
  }
  return value;
}

export function describe(value: unknown): string {
  if (value instanceof RawJson) return `raw ${value.text}`;
  const text = typeof value === 'string' ? JSON.stringify(value) : serialiseBody(value);
  return text.length > 60 ? `${text.slice(0, 57)}...(${text.length} chars)` : text;
}

// ---- Valid values as fast-check arbitraries (the contract walk, tests/contract/walk.test.ts) ----

/** Realistic values for well-known field names, tried before the schema's own generator. */
export type FieldArbitraries = Readonly<Record<string, fc.Arbitrary<unknown>>>;

const MAX_GENERATED_STRING = 48;

/**
 * An arbitrary of values that satisfy `schema` (the subset of JSON Schema 2020-12 the document's
 * request schemas use). A field with a realistic arbitrary in `fields` gets it most of the time,
 * so the walk reaches the handlers' success paths, not only their validation.
 */
export function arbitraryFor(schema: JsonSchema, fields: FieldArbitraries = {}, fieldName?: string): fc.Arbitrary<unknown> {
  const own = ownArbitrary(schema, fields);
  const realistic = fieldName ? fields[fieldName] : undefined;
  if (!realistic) return own;
  return fc.oneof({ arbitrary: realistic.filter((value) => satisfies(schema, value)), weight: 9 }, { arbitrary: own, weight: 1 });
}

function ownArbitrary(schema: JsonSchema, fields: FieldArbitraries): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, fields)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => ownArbitrary({ ...schema, type }, fields)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.max(Number.MIN_SAFE_INTEGER, lowerBound(schema, 1));
      const max = Math.min(Number.MAX_SAFE_INTEGER, upperBound(schema, 1));
      return min > max ? fc.constant(min) : fc.integer({ min, max });
    }
    case 'number': {
      const min = lowerBound(schema, 0);
      const max = upperBound(schema, 0);
      return fc.double({ min: Math.max(min, -1e12), max: Math.min(max, 1e12), noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(schema.items ? arbitraryFor(schema.items, fields) : fc.jsonValue({ maxDepth: 1 }), { minLength, maxLength });
    }
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0 && schema.additionalProperties !== false) {
        const values = typeof schema.additionalProperties === 'object' ? arbitraryFor(schema.additionalProperties, fields) : fc.jsonValue({ maxDepth: 2 });
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: 4 });
      }
      const model = Object.fromEntries(properties.map(([name, property]) => [name, arbitraryFor(property, fields, name)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function lowerBound(schema: JsonSchema, step: number): number {
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + (step || Number.EPSILON);
  if (schema.minimum === undefined) return -1_000_000;
  return schema.exclusiveMinimum === true ? schema.minimum + (step || Number.EPSILON) : schema.minimum;
}

function upperBound(schema: JsonSchema, step: number): number {
  if (typeof schema.exclusiveMaximum === 'number') return schema.exclusiveMaximum - (step || Number.EPSILON);
  if (schema.maximum === undefined) return 1_000_000;
  return schema.exclusiveMaximum === true ? schema.maximum - (step || Number.EPSILON) : schema.maximum;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_GENERATED_STRING, minLength + MAX_GENERATED_STRING));
  const fits = (value: string) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    default:
      break;
  }
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
  // Printable text, sometimes any Unicode (the server must take what its schema admits).
  return fc.oneof({ arbitrary: fc.string({ minLength, maxLength }), weight: 3 }, { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }).filter(fits), weight: 1 });
}

/** An operation that answers a stream that stays open (Server-Sent Events: GET /api/events/stream). */
export function answersStream(operation: Operation): boolean {
  return Object.keys(operation.responses['200']?.content ?? {}).includes('text/event-stream');
}

export type InjectedAnswer = { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown };

/**
 * `app.inject` for any operation. A stream that stays open would never end an injection: it is
 * taken as a stream, judged by its status and headers and closed once its head arrives (its
 * messages are tested in src/server/features/live/live-events.test.ts); an error it answers
 * instead is read whole.
 */
export async function injectOperation(app: FastifyInstance, operation: Operation, options: InjectOptions): Promise<InjectedAnswer> {
  if (!answersStream(operation)) return app.inject(options);
  const response = await app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  let body = '';
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    stream.destroy();
    (response.raw.res as { destroy(): void }).destroy();
  } else {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks).toString('utf8');
  }
  return { statusCode: response.statusCode, headers: response.headers, body, json: () => JSON.parse(body) };
}
