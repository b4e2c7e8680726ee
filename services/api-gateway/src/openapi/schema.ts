/** zod → JSON Schema for the OpenAPI document: named schemas become `components.schemas` and are referenced. */
import { z } from "zod";
import { listOf, successOf } from "@cardhold/contracts";

export type Json = Record<string, unknown>;
/** Path items: path → method → operation. */
export type Paths = Record<string, Record<string, Json>>;

/** Every schema with a name: rendered once under components.schemas.<id>, referenced everywhere else. */
const registry = z.registry<{ id: string }>();
const descriptions = new Map<string, string>();

/** `description` is for schemas from elsewhere: describing one there would make a copy, which has no name. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  registry.add(schema, { id });
  if (description) descriptions.set(id, description);
  return schema;
}

/** `z.number().int()` renders ±MAX_SAFE_INTEGER bounds: true of every JSON integer we send, so only noise. */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: Json }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

// "input": the shape on the wire, with defaults optional; a plain z.object then leaves other keys allowed, as the
// services ignore unknown request fields and records may gain fields. Refinements cannot be rendered and are left out.
const OPTIONS = { io: "input", unrepresentable: "any", override: dropSafeIntegerBounds } as const;

function bare(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** A schema written out in full (request bodies are: the fuzz suite reads them without following references). */
export const jsonSchema = (schema: z.ZodType): Json => bare(z.toJSONSchema(schema, OPTIONS) as Json);

function nameOf(schema: z.ZodType): string {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error("openapi: this schema has no name; give it one with named()");
  return id;
}

export const ref = (schema: z.ZodType): Json => ({ $ref: `#/components/schemas/${nameOf(schema)}` });

/** "The card program" for CardProgram. */
export const theRecord = (schema: z.ZodType): string =>
  `The ${nameOf(schema)
    .replace(/\B([A-Z])/g, " $1")
    .toLowerCase()}`;

export function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, { ...OPTIONS, uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => [
      id,
      { ...bare(schema as Json), ...(descriptions.has(id) && { description: descriptions.get(id) }) },
    ]),
  );
}

// The success and list envelopes of packages/contracts, with the record put in as a reference.
const SUCCESS = jsonSchema(successOf(z.object({})));
const LIST = jsonSchema(listOf(z.object({})));
const propertiesOf = (schema: Json) => schema.properties as Record<string, Json>;

export const success = (data: Json, code = "success"): Json => ({
  ...SUCCESS,
  properties: { ...propertiesOf(SUCCESS), code: { type: "string", const: code }, data },
});

export const page = (item: Json): Json => ({
  ...LIST,
  properties: { ...propertiesOf(LIST), data: { type: "array", items: item } },
});
