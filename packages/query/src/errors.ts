/** The interface's exact message for a filter that cannot be read (a compatibility contract). */
export const FILTER_FORMAT_MESSAGE = "The format of the filter parameter is incorrect";

export class QueryError extends Error {
  readonly status = 400;
  constructor(
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = "QueryError";
  }
}

/** A filter, or, nor or and parameter that is not well-formed: exactly the interface's 400 body. */
export const malformedFilter = () =>
  new QueryError("invalid-filter", FILTER_FORMAT_MESSAGE, { statusCode: 400, message: FILTER_FORMAT_MESSAGE });

/** Any other problem with the list parameters; the message names it. */
export const invalidQuery = (message: string) =>
  new QueryError("invalid-query", message, { statusCode: 400, code: "invalid-query", message });
