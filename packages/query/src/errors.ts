/** The interface's exact message for a filter that cannot be read (a compatibility contract). */
export const FILTER_FORMAT_MESSAGE = "The format of the filter parameter is incorrect";

/** The exact 400 body for a malformed filter, or, nor or and parameter: these two keys and nothing else. */
export const FILTER_FORMAT_ERROR: Readonly<{ statusCode: 400; message: string }> = Object.freeze({
  statusCode: 400,
  message: FILTER_FORMAT_MESSAGE,
});

/** Every problem with list parameters: HTTP 400 with `body` as the response body. */
export class QueryError extends Error {
  readonly status = 400;
  constructor(
    /** "invalid-filter" (malformed filter expression) or "invalid-query" (anything else). */
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = "QueryError";
  }
}

/** A filter, or, nor or and parameter that cannot be tokenised or parsed: exactly the interface's 400 body. */
export const malformedFilter = () =>
  new QueryError("invalid-filter", FILTER_FORMAT_MESSAGE, { ...FILTER_FORMAT_ERROR });

/** Any other problem with the list parameters; the message names it. */
export const invalidQuery = (message: string) =>
  new QueryError("invalid-query", message, { statusCode: 400, code: "invalid-query", message });

/** A value from the request as shown in a message: at most 100 characters. */
export const shown = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}…` : text);
