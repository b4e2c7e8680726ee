import { compileErrors, validate } from "@readme/openapi-parser";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { customerRequestSchema, EVENT_KINDS } from "@cardhold/contracts";
import { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT, LIST_PARAMETERS } from "@cardhold/query";
import { parseEvent, validAnswer } from "@cardhold/receiver";
import { openApiDocument } from "./document";
import { ANSWERS, customerRequest } from "./examples";

type Json = Record<string, any>;
const doc = openApiDocument() as Json;
const METHODS = ["get", "put", "post", "delete", "patch"];

const operations = (items: Json) =>
  Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
const pathOperations = operations(doc.paths);
const webhookOperations = operations(doc.webhooks);

/** A schema of the document, with its references to components.schemas made local, as zod reads it. */
function zodOf(schema: Json): z.ZodType {
  const text = JSON.stringify({ ...schema, $defs: doc.components.schemas }).replaceAll(
    "#/components/schemas/",
    "#/$defs/",
  );
  return z.fromJSONSchema(JSON.parse(text));
}

const resolve = (value: Json): Json =>
  value.$ref
    ? resolve(
        value.$ref
          .slice(2)
          .split("/")
          .reduce((at: Json, key: string) => at[key], doc),
      )
    : value;

/** Every media type in the document that has examples: where it is, its schema and the example values. */
function examplesIn(value: unknown, where: string): { where: string; schema: Json; values: unknown[] }[] {
  if (!value || typeof value !== "object") return [];
  const node = value as Json;
  const own =
    node.schema && (node.example !== undefined || node.examples)
      ? [
          {
            where,
            schema: node.schema,
            values: node.example !== undefined ? [node.example] : Object.values(node.examples).map((e: any) => e.value),
          },
        ]
      : [];
  return [...own, ...Object.entries(node).flatMap(([key, child]) => examplesIn(child, `${where}/${key}`))];
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator, references included", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    if (!result.valid) console.error("OpenAPI validation errors:", JSON.stringify(result.errors, null, 2));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("is valid by @readme/openapi-parser too, which also checks path parameters, duplicates and operation ids", async () => {
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) console.error("OpenAPI validation errors:", compileErrors(result));
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("declares every {param} of every path template as a path parameter, and no other", () => {
    for (const { path, method, op } of pathOperations) {
      const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).map(resolve).filter((p: Json) => p.in === "path");
      expect(declared.map((p: Json) => p.name).sort(), `${method} ${path}`).toEqual(inTemplate);
      for (const p of declared) expect(p.required, `${method} ${path} ${p.name}`).toBe(true);
    }
  });

  it("gives every list the list query language, limit an integer with its bounds", () => {
    const isStream = (op: Json) => op.responses["200"]?.content?.["text/event-stream"] !== undefined;
    const lists = pathOperations.filter(
      ({ op }) => !isStream(op) && (op.parameters ?? []).some((p: Json) => p.name === "filter"),
    );
    expect(lists.length).toBeGreaterThan(10);
    for (const { path, op } of lists) {
      const names = op.parameters.filter((p: Json) => p.in === "query").map((p: Json) => p.name);
      expect(names, path).toEqual(LIST_PARAMETERS.filter((n) => n !== "expand" || names.includes("expand")));
      const limit = op.parameters.find((p: Json) => p.name === "limit");
      expect(limit.schema, path).toEqual({
        type: "integer",
        minimum: 1,
        maximum: DEFAULT_MAX_LIMIT,
        default: DEFAULT_LIMIT,
      });
      expect(op.parameters.find((p: Json) => p.name === "countTotal").schema.type, path).toBe("boolean");
    }
  });

  it("tags every operation with a declared tag, and describes every tag", () => {
    const tags = new Set(doc.tags.map((t: Json) => t.name));
    for (const t of doc.tags) expect(t.description, t.name).toBeTruthy();
    for (const { path, method, op } of [...pathOperations, ...webhookOperations]) {
      expect(op.tags?.length, `${method} ${path}`).toBe(1);
      expect(tags.has(op.tags[0]), `${method} ${path}: ${op.tags[0]}`).toBe(true);
    }
  });

  it("gives every operation a 2xx answer with a schema, and every authenticated one its 401, 403 and 5XX", () => {
    for (const { path, method, op } of pathOperations) {
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      expect(success.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, answer] of success)
        if (status !== "204")
          expect(Object.values((answer as Json).content)[0], `${method} ${path}`).toHaveProperty("schema");
      const admin = (op.security ?? doc.security).some((s: Json) => "operatorToken" in s);
      expect(op.responses["401"].$ref, `${method} ${path}`).toBe(
        `#/components/responses/${admin ? "OperatorUnauthorized" : "Unauthorized"}`,
      );
      if (!admin) expect(op.responses["403"], `${method} ${path}`).toBeDefined();
      expect(op.responses["5XX"], `${method} ${path}`).toBeDefined();
      if (op.requestBody) expect(op.responses["400"], `${method} ${path}`).toBeDefined();
    }
  });

  it("describes the gateway's bearer keys and the error body the error handler writes", () => {
    expect(doc.security).toEqual([{ secretKey: [] }]);
    expect(doc.components.securitySchemes.secretKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Error.required).toEqual(["statusCode", "code", "message"]);
    for (const status of [
      "BadRequest",
      "Unauthorized",
      "Forbidden",
      "NotFound",
      "Conflict",
      "StateConflict",
      "ServerError",
    ]) {
      expect(doc.components.responses[status].content["application/json"].schema, status).toBeDefined();
    }
  });

  it("documents every event kind of the contracts under webhooks, signed, and nothing else", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_KINDS].sort());
    for (const { path, op } of webhookOperations) {
      const signature = op.parameters.find((p: Json) => p.name === "Service-Signature");
      expect(signature, path).toMatchObject({ in: "header", required: true, schema: { pattern: "^[0-9a-f]{128}$" } });
      const body = resolve(op.requestBody.content["application/json"].schema);
      expect(body.properties.event.const, path).toBe(path);
    }
  });

  it("answers the decision events with the receiver's approve, approveCheck and decline", () => {
    const answer = doc.webhooks["card.authorization.request"].post.responses["200"].content["application/json"];
    expect(answer.schema.anyOf.map((s: Json) => s.$ref)).toEqual([
      "#/components/schemas/CheckAnswer",
      "#/components/schemas/AuthorizationAnswer",
    ]);
    expect(validAnswer(ANSWERS.approveCheck.value, "check")).toEqual(ANSWERS.approveCheck.value);
    expect(validAnswer(ANSWERS.decline.value)).toEqual(ANSWERS.decline.value);
    expect(zodOf({ $ref: "#/components/schemas/CheckAnswer" }).safeParse({ action: "approve" }).success).toBe(false);
    expect(
      doc.webhooks["card.authorization.update"].post.responses["200"].content["application/json"].schema.$ref,
    ).toBe("#/components/schemas/AuthorizationAnswer");
  });

  it("has examples that match their own schemas", () => {
    const found = examplesIn(doc, "#");
    expect(found.length).toBeGreaterThan(15);
    for (const { where, schema, values } of found) {
      const check = zodOf(schema);
      for (const value of values) {
        const result = check.safeParse(value);
        expect(result.success, `${where}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
      }
    }
  });

  it("has webhook examples the receiver SDK accepts, and request examples the services accept", () => {
    for (const kind of EVENT_KINDS.filter((k) => k.startsWith("card."))) {
      for (const example of Object.values(
        doc.webhooks[kind].post.requestBody.content["application/json"].examples,
      ) as Json[]) {
        expect(() => parseEvent(example.value), kind).not.toThrow();
      }
    }
    expect(customerRequestSchema.safeParse(customerRequest).success).toBe(true);
  });
});
