/**
 * Where the dispatchers post answers to this engine process's decision events: ENGINE_ANSWER_URL as given (`off`:
 * nowhere), or else http://HOST:PORT when that names this process (one address, a fixed port). An engine listening on
 * every address cannot tell which of them the dispatchers reach, so it gives none and its answers come on decisions.v1.
 */
export function answerAddress(given: string | undefined, host: string, port: number): string | undefined {
  if (given !== undefined) return given === "off" ? undefined : given;
  const everyAddress = host === "0.0.0.0" || host === "::" || host === "";
  if (everyAddress || port === 0) return undefined;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
