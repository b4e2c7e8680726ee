/**
 * The console's sessions: a secret key exchanged for an opaque session id (the cookie), which then stands for the
 * key's caller — its business, mode and permissions as they are now: a revoked key ends its sessions at once.
 */
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import { AppError } from "@cardhold/platform";
import type { Caller } from "../api-keys";
import type { BusinessUseCases } from "../businesses";
import {
  deleteConsoleSession,
  deleteExpiredConsoleSessions,
  findBusinessName,
  findConsoleSession,
  insertConsoleSession,
  touchConsoleSession,
  type ConsoleSessionRow,
} from "./console-sessions.store";
import {
  endsAt,
  hasEnded,
  hashSessionId,
  isDueForTouch,
  isSessionIdShaped,
  newCsrfToken,
  newSessionId,
  timesAtSignIn,
  type SessionTimes,
} from "./session-rules";

export interface ConsoleSession {
  idHash: string;
  caller: Caller;
  business: { id: string; name: string };
  csrfToken: string;
  times: SessionTimes;
}

/** What the page is told of its session (POST and GET /console/api/session). */
export interface SessionView {
  business: { id: string; name: string };
  mode: Caller["mode"];
  keyId: string;
  permissions: Caller["permissions"];
  csrfToken: string;
  /** When the session ends if no request comes first. */
  expiresAt: string;
}

export const sessionView = (s: ConsoleSession): SessionView => ({
  business: s.business,
  mode: s.caller.mode,
  keyId: s.caller.keyId,
  permissions: s.caller.permissions,
  csrfToken: s.csrfToken,
  expiresAt: new Date(endsAt(s.times)).toISOString(),
});

export const NO_SESSION = "No console session: sign in with a secret key (POST /console/api/session)";
export const SESSION_EXPIRED = "session expired";
export const KEY_REVOKED = "The secret key of this session was revoked: sign in again";

const refused = (message: string) => new AppError(401, "unauthorized", message);

function sessionOf(idHash: string, row: ConsoleSessionRow): ConsoleSession {
  return {
    idHash,
    caller: {
      keyId: row.key_id,
      businessId: row.business_id,
      mode: row.mode,
      permissions: row.permissions,
      delayedRequests: row.delayed_requests,
    },
    business: { id: row.business_id, name: row.business_name },
    csrfToken: row.csrf_token,
    times: {
      createdAt: row.created_at.getTime(),
      lastSeenAt: row.last_seen_at.getTime(),
      expiresAt: row.expires_at.getTime(),
    },
  };
}

type KeyAuthentication = Pick<BusinessUseCases, "authenticate" | "recordKeyUse">;

export function consoleSessions(db: Db, keys: KeyAuthentication, logger: Logger, now: () => number = Date.now) {
  return {
    /** A new session for a working secret key, with its id (the cookie's value, never stored); undefined: no such key. */
    async signIn(key: string): Promise<{ id: string; session: ConsoleSession } | undefined> {
      const caller = await keys.authenticate(key);
      if (!caller) return undefined;
      const name = await findBusinessName(db, caller.businessId);
      if (name === undefined) return undefined;
      const at = now();
      await deleteExpiredConsoleSessions(db, new Date(at));
      const id = newSessionId();
      const session: ConsoleSession = {
        idHash: hashSessionId(id),
        caller,
        business: { id: caller.businessId, name },
        csrfToken: newCsrfToken(),
        times: timesAtSignIn(at),
      };
      await insertConsoleSession(db, {
        idHash: session.idHash,
        keyId: caller.keyId,
        businessId: caller.businessId,
        mode: caller.mode,
        csrfToken: session.csrfToken,
        createdAt: new Date(session.times.createdAt),
        lastSeenAt: new Date(session.times.lastSeenAt),
        expiresAt: new Date(session.times.expiresAt),
      });
      return { id, session };
    },

    /** The live session a cookie's value names, or a 401 saying why not (no session, expired, its key revoked). */
    async find(id: string | undefined): Promise<ConsoleSession> {
      if (id === undefined || !isSessionIdShaped(id)) throw refused(NO_SESSION);
      const idHash = hashSessionId(id);
      const row = await findConsoleSession(db, idHash);
      if (!row) throw refused(NO_SESSION);
      const session = sessionOf(idHash, row);
      if (row.key_revoked_at !== null || hasEnded(session.times, now())) {
        await deleteConsoleSession(db, idHash);
        throw refused(row.key_revoked_at !== null ? KEY_REVOKED : SESSION_EXPIRED);
      }
      return session;
    },

    /**
     * The user did something (an API request): the session does not idle out, and its key is marked used, as a
     * request with the key would. A live stream's checks are not activity.
     */
    async recordActivity(session: ConsoleSession): Promise<void> {
      const at = now();
      if (isDueForTouch(session.times, at)) {
        await touchConsoleSession(db, session.idHash, new Date(at)).catch((err: unknown) =>
          logger.warn({ err }, "console session last_seen_at not written"),
        );
        session.times.lastSeenAt = at;
      }
      keys.recordKeyUse(session.caller.keyId);
    },

    signOut: (session: ConsoleSession) => deleteConsoleSession(db, session.idHash),
  };
}

export type ConsoleSessions = ReturnType<typeof consoleSessions>;
