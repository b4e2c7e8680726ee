/**
 * Builders of the document's operations. An operation names what is particular to it; the answers every operation
 * of its kind gives (401, 403, 404, 5xx …), its path parameters and its tag are added by finish.ts.
 */
import type { z } from "zod";
import { listParameters } from "./parameters";
import { jsonSchema, page, ref, success, theRecord, type Json } from "./schema";

export interface OperationSpec {
  summary: string;
  description?: string;
  /** The request body's zod schema, as the service validates it. */
  body?: z.ZodType;
  bodyExample?: unknown;
  /** What the 2xx answer is, its schema and an example. */
  returns: string;
  schema: Json;
  example?: unknown;
  status?: "200" | "201" | "202";
  parameters?: Json[];
  /** Answers beyond the standard ones. */
  responses?: Json;
  security?: Json[];
}

const json = (schema: Json, example?: unknown): Json => ({
  "application/json": { schema, ...(example !== undefined && { example }) },
});

export function operation(spec: OperationSpec): Json {
  const { summary, description, parameters, security, body } = spec;
  return {
    summary,
    ...(description && { description }),
    ...(parameters && { parameters }),
    ...(security && { security }),
    ...(body && { requestBody: { required: true, content: json(jsonSchema(body), spec.bodyExample) } }),
    responses: {
      [spec.status ?? "200"]: { description: spec.returns, content: json(spec.schema, spec.example) },
      ...spec.responses,
    },
  };
}

/** `{code: "success", data: <record>}` */
export const one = (record: z.ZodType) => success(ref(record));

/** GET of one record. */
export const read = (summary: string, record: z.ZodType, extra: Partial<OperationSpec> = {}) =>
  operation({ summary, returns: theRecord(record), schema: one(record), ...extra });

/** GET of a list page, with the list query language. */
export const list = (
  summary: string,
  record: z.ZodType,
  expandable: string[] = [],
  extra: Partial<OperationSpec> = {},
) =>
  operation({
    summary,
    returns: "A page, newest first unless sorted",
    schema: page(ref(record)),
    parameters: listParameters(expandable),
    ...extra,
  });

/** A POST or PUT that answers with one record. */
export const write = (
  summary: string,
  body: z.ZodType | undefined,
  record: z.ZodType,
  extra: Partial<OperationSpec> = {},
) => operation({ summary, body, returns: theRecord(record), schema: one(record), ...extra });
