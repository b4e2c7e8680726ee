export interface FieldProblem {
  path: string;
  message: string;
}

export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  errors?: FieldProblem[];
  errorId?: string;
}

/** The one error type services throw; `message` is safe to show to API clients. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldProblem[],
    /** A body that must be sent as it is (compatibility contracts, e.g. the bad-filter 400). */
    readonly exactBody?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }

  toBody(): Record<string, unknown> {
    if (this.exactBody) return this.exactBody;
    const body: ErrorBody = { statusCode: this.statusCode, code: this.code, message: this.message };
    if (this.errors?.length) body.errors = this.errors;
    return body as unknown as Record<string, unknown>;
  }
}

export const badRequest = (message: string, errors?: FieldProblem[]) =>
  new AppError(400, "invalid-request", message, errors);
export const unauthorized = (message = "A valid secret key is required: Authorization: Bearer sk.<mode>.<secret>") =>
  new AppError(401, "unauthorized", message);
export const forbidden = (message: string) => new AppError(403, "forbidden", message);
export const notFound = (what: string, id: string) => new AppError(404, "not-found", `${what} ${id} was not found`);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const stateConflict = (message: string) => new AppError(422, "invalid-state", message);
