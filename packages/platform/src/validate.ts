import type { z } from "zod";
import { AppError, type FieldProblem } from "./errors";

function pathOf(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
      .join(".")
      .replace(/\.\[/g, "[") || "(body)"
  );
}

export function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message }));
}

/** Parses input with a zod schema; on failure a 400 that lists every bad field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, what = "request body"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = zodProblems(result.error);
  return failValidation(what, errors);
}

function failValidation(what: string, errors: FieldProblem[]): never {
  const fields = errors.map((e) => e.path).join(", ");
  throw new AppError(400, "invalid-request", `Invalid ${what}: ${fields}`, errors);
}
