import { useEffect, useRef, useState } from "react";
import { api, withQuery } from "./http";
import type { Authorization } from "./types";

const STREAM_PATH = "/console/api/stream/card-authorizations";
const RECONNECT_MS = 3_000;

export type LiveStatus = "connecting" | "live" | "reconnecting";

/** A stream message's authorization: the body of GET /card-authorizations/:id ({code, data}) or the record itself. */
export function authorizationOf(message: string): Authorization | undefined {
  try {
    const parsed = JSON.parse(message) as { object?: string; data?: { object?: string } };
    if (parsed.object === "card.authorization") return parsed as unknown as Authorization;
    if (parsed.data?.object === "card.authorization") return parsed.data as unknown as Authorization;
  } catch {
    // not JSON: ignored
  }
  return undefined;
}

/** An ordinary request: its 401, when the session ended, signs the console out (see `onUnauthorized`). */
const askWhetherSignedIn = () => api("GET", "/card-authorizations?limit=1").catch(() => undefined);

/**
 * Every new or changed authorization (matching `filter`) as it happens, from the gateway's server-sent events. The
 * browser reconnects by itself after a dropped connection; when the gateway refused the stream outright, an ordinary
 * request tells whether the session ended (a 401 signs the console out) and the stream is opened again.
 */
export function useAuthorizationStream(
  filter: string | undefined,
  onAuthorization: (authorization: Authorization) => void,
): LiveStatus {
  const handler = useRef(onAuthorization);
  handler.current = onAuthorization;
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const source = new EventSource(withQuery(STREAM_PATH, { filter }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => setStatus("live");
    source.addEventListener("card-authorization", (message) => {
      const authorization = authorizationOf((message as MessageEvent<string>).data);
      if (authorization) handler.current(authorization);
    });
    // The gateway says so before it closes a stream whose session ended (expired, signed out, key revoked).
    source.addEventListener("session-ended", () => {
      source.close();
      void askWhetherSignedIn();
    });
    source.onerror = () => {
      setStatus("reconnecting");
      if (source.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(() => void askWhetherSignedIn().finally(() => setAttempt((n) => n + 1)), RECONNECT_MS);
    };
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [filter, attempt]);

  return status;
}
