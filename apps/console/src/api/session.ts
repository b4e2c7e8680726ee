import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api, ApiError, setCsrfToken } from "./http";
import type { Permission, Session } from "./types";

const SESSION_PATH = "/console/api/session";
export const SESSION_QUERY = ["console-session"] as const;

/** The signed-in session, or null when there is none (401). */
async function currentSession(): Promise<Session | null> {
  try {
    return remember(await api<Session>("GET", SESSION_PATH));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return remember(null);
    throw error;
  }
}

function remember(session: Session | null): Session | null {
  setCsrfToken(session?.csrfToken);
  return session;
}

export function useSession() {
  return useQuery({ queryKey: SESSION_QUERY, queryFn: currentSession, staleTime: Infinity, retry: false });
}

/** Exchanges the secret key for a session cookie; the key is sent once and not kept anywhere. */
export async function signIn(queryClient: QueryClient, key: string): Promise<Session> {
  const session = await api<Session>("POST", SESSION_PATH, { key });
  remember(session);
  forgetRecords(queryClient);
  queryClient.setQueryData(SESSION_QUERY, session);
  return session;
}

/** Ends the session on the server, then forgets everything the page loaded. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await api("DELETE", SESSION_PATH);
  } finally {
    forgetSession(queryClient);
  }
}

/** Drops the session and every record loaded under it (after sign-out, expiry or a revoked key). */
export function forgetSession(queryClient: QueryClient): void {
  remember(null);
  forgetRecords(queryClient);
  queryClient.setQueryData(SESSION_QUERY, null);
}

/** Every query but the session's (which the page observes throughout). */
function forgetRecords(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
}

/** Whether the session's key allows it; a full-access key (permissions null) allows everything. */
export function can(session: Session, permission: Permission): boolean {
  return session.permissions === null || session.permissions.includes(permission);
}
