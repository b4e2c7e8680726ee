/**
 * Completes every operation the same way: its tag, its path parameters (every `{name}` of the template) and the
 * answers the gateway gives any operation of its kind. An operation's own answers win over these.
 */
import { isGatewayOwnWrite } from "./console-paths";
import { pathParameters } from "./parameters";
import { requestAccepted } from "./request-paths";
import { error } from "./responses";
import type { Json, Paths } from "./schema";
import { tagOf } from "./tags";

const isAdmin = (op: Json) => ((op.security as Json[] | undefined) ?? []).some((s) => "operatorToken" in s);

/** The tenant's operations, but for the simulation (the card network's side): see src/http/rate-limit.ts. */
const isLimited = (path: string, op: Json) => !isAdmin(op) && !path.startsWith("/simulation/");

/** A tenant's write, which a key with delayedRequests on may get answered 202 (src/delayed-requests.ts). */
const isDelayable = (path: string, method: string, op: Json) =>
  !isAdmin(op) && method !== "get" && !isGatewayOwnWrite(path);

function standardResponses(path: string, method: string, op: Json, parameters: Json[]): Json {
  const admin = isAdmin(op);
  const takesInput = op.requestBody !== undefined || parameters.some((p) => p.in === "query");
  const namesIds = parameters.some((p) => p.in === "path");
  return {
    ...(isDelayable(path, method, op) && { "202": requestAccepted() }),
    ...(takesInput && { "400": error("BadRequest") }),
    "401": admin ? error("OperatorUnauthorized") : error("Unauthorized"),
    ...(!admin && { "403": error("Forbidden") }),
    ...(admin && {
      "404": error("NotFound", "Unknown business or key; or admin endpoints are off (no OPERATOR_TOKEN set)"),
    }),
    ...(namesIds && !admin && { "404": error("NotFound") }),
    ...(op.requestBody !== undefined && { "413": error("PayloadTooLarge"), "415": error("UnsupportedMediaType") }),
    ...(isLimited(path, op) && { "429": error("TooManyRequests") }),
    "5XX": error("ServerError"),
  };
}

/** Status codes in order, the 5XX range last. */
const ordered = (responses: Json): Json =>
  Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

function finishOperation(path: string, method: string, op: Json): Json {
  const parameters = [...pathParameters(path), ...((op.parameters as Json[] | undefined) ?? [])];
  const { summary, description, requestBody, responses, ...rest } = op;
  return {
    tags: [tagOf(path)],
    summary,
    ...(description !== undefined && { description }),
    ...rest,
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody !== undefined && { requestBody }),
    responses: ordered({ ...standardResponses(path, method, op, parameters), ...(responses as Json) }),
  };
}

export function finishPaths(paths: Paths): Json {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, finishOperation(path, method, op)])),
    ]),
  );
}
