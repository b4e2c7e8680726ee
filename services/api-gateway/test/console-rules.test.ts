import { describe, expect, it } from "vitest";
import { compileListQuery, parseListQuery, scopedResource } from "@cardhold/query";
import {
  createAuthorizationFeed,
  LOOKBACK_MS,
  MAX_PAGES_PER_POLL,
  PAGE_LIMIT,
  type AuthorizationRecord,
  type ListPage,
} from "../src/console/authorization-feed";
import { clearedSessionCookie, cookieValue, sessionCookie } from "../src/console/cookies";
import {
  ABSOLUTE_MS,
  cookieMaxAgeSeconds,
  endsAt,
  hashSessionId,
  hasEnded,
  IDLE_MS,
  isDueForTouch,
  isSessionIdShaped,
  newCsrfToken,
  newSessionId,
  sameToken,
  timesAtSignIn,
  TOUCH_EVERY_MS,
} from "../src/console/session-rules";
import { createSignInLimit } from "../src/console/sign-in-limit";

describe("the console session's rules", () => {
  const t0 = Date.parse("2025-03-14T08:00:00.000Z");

  it("makes 256-bit ids and tokens, each different, and stores an id only as its SHA-256", () => {
    const ids = new Set(Array.from({ length: 50 }, newSessionId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(isSessionIdShaped(id)).toBe(true);
    expect(newCsrfToken()).not.toBe(newCsrfToken());
    const id = newSessionId();
    expect(hashSessionId(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionId(id)).not.toContain(id);
    expect(isSessionIdShaped("short")).toBe(false);
    expect(isSessionIdShaped(`${id}'`)).toBe(false);
  });

  it("compares tokens whole: not a prefix, not another of the same length, not a missing one", () => {
    const token = newCsrfToken();
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token.slice(0, -1), token)).toBe(false);
    expect(sameToken(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, token)).toBe(false);
    expect(sameToken(undefined, token)).toBe(false);
    expect(sameToken("", token)).toBe(false);
  });

  it("ends a session 30 minutes after its last request or 12 hours after sign-in, whichever is first", () => {
    const times = timesAtSignIn(t0);
    expect(hasEnded(times, t0 + IDLE_MS - 1)).toBe(false);
    expect(hasEnded(times, t0 + IDLE_MS)).toBe(true);
    expect(endsAt(times)).toBe(t0 + IDLE_MS);

    const active = { ...times, lastSeenAt: t0 + ABSOLUTE_MS - 60_000 };
    expect(hasEnded(active, t0 + ABSOLUTE_MS - 1)).toBe(false);
    expect(hasEnded(active, t0 + ABSOLUTE_MS)).toBe(true);
    expect(endsAt(active)).toBe(t0 + ABSOLUTE_MS);
  });

  it("writes last-seen at most once a minute, and gives the cookie what is left of the 12 hours", () => {
    const times = timesAtSignIn(t0);
    expect(isDueForTouch(times, t0 + TOUCH_EVERY_MS - 1)).toBe(false);
    expect(isDueForTouch(times, t0 + TOUCH_EVERY_MS)).toBe(true);
    expect(cookieMaxAgeSeconds(times, t0)).toBe(43_200);
    expect(cookieMaxAgeSeconds(times, t0 + ABSOLUTE_MS + 5_000)).toBe(0);
  });
});

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Strict, Path=/ with a Max-Age, Secure only over TLS; cleared with Max-Age=0", () => {
    expect(sessionCookie("abc", 60, false)).toBe("cardhold_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60");
    expect(sessionCookie("abc", 60, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toBe("cardhold_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
  });

  it("is read from a Cookie header among others, and not from a cookie whose name only ends the same", () => {
    expect(cookieValue("a=1; cardhold_session=xyz; b=2", "cardhold_session")).toBe("xyz");
    expect(cookieValue('cardhold_session="quoted"', "cardhold_session")).toBe("quoted");
    expect(cookieValue("my_cardhold_session=no", "cardhold_session")).toBeUndefined();
    expect(cookieValue("garbage", "cardhold_session")).toBeUndefined();
    expect(cookieValue(undefined, "cardhold_session")).toBeUndefined();
  });
});

describe("the sign-in limit per address", () => {
  it("admits a burst of 10, then one every 6 s, each address on its own", () => {
    const limit = createSignInLimit();
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) expect(limit.attempt("10.0.0.1", t0).admitted).toBe(true);
    expect(limit.attempt("10.0.0.1", t0)).toEqual({ admitted: false, retryAfter: 6 });
    expect(limit.attempt("10.0.0.2", t0).admitted).toBe(true);
    expect(limit.attempt("10.0.0.1", t0 + 5_000).admitted).toBe(false);
    expect(limit.attempt("10.0.0.1", t0 + 6_000).admitted).toBe(true);
    expect(limit.attempt("10.0.0.1", t0 + 6_000).admitted).toBe(false);
  });

  it("remembers a bounded number of addresses: full buckets are forgotten first, then the oldest", () => {
    const limit = createSignInLimit({ rate: 1, burst: 2 }, 3);
    limit.attempt("a", 0);
    expect(limit.attempt("a", 0).admitted).toBe(true);
    expect(limit.attempt("a", 0).admitted).toBe(false);
    limit.attempt("b", 0);
    limit.attempt("c", 0);
    limit.attempt("d", 0); // none is full: the oldest ("a") goes
    expect(limit.size()).toBe(3);
    expect(limit.attempt("a", 0).admitted).toBe(true);
    expect(limit.size()).toBe(3);
    limit.attempt("e", 10_000); // all full again by now: forgotten
    expect(limit.size()).toBe(1);
  });
});

describe("the live stream's feed", () => {
  const at = (s: number) => new Date(Date.parse("2025-03-14T08:00:00.000Z") + s * 1000).toISOString();
  const auth = (id: string, updatedAtSeconds: number): AuthorizationRecord => ({
    id,
    updatedAt: at(updatedAtSeconds),
  });

  /** A list reader over a fixed set: sort=updatedAt with `updatedAt|gted|`, as the engine answers. */
  function listOf(all: AuthorizationRecord[]) {
    const queries: URLSearchParams[] = [];
    const read = async (query: string): Promise<ListPage> => {
      const params = new URLSearchParams(query);
      queries.push(params);
      const since = /updatedAt\|gted\|(\S+)/.exec(params.get("filter") ?? "")?.[1];
      const sorted = all
        .filter((a) => since === undefined || Date.parse(a.updatedAt) >= Date.parse(since))
        .sort((x, y) => Date.parse(x.updatedAt) - Date.parse(y.updatedAt));
      const limit = Number(params.get("limit"));
      return { data: sorted.slice(0, limit), hasMore: sorted.length > limit };
    };
    return { read, queries };
  }

  it("sends what is new or changed since it opened, once, with the client's filter and the cursor", async () => {
    const feed = createAuthorizationFeed("status:approved");
    expect(new URLSearchParams(feed.openingQuery()).get("sort")).toBe("-updatedAt");
    feed.open({ data: [auth("a", 10), auth("b", 9)], hasMore: false });
    const all = [auth("a", 10), auth("b", 9), auth("c", 11)];
    const list = listOf(all);
    expect((await feed.poll(list.read)).map((a) => a.id)).toEqual(["c"]);
    expect(list.queries[0]!.get("filter")).toBe(`status:approved updatedAt|gted|${at(10 - LOOKBACK_MS / 1000)}`);
    expect(list.queries[0]!.get("sort")).toBe("updatedAt");
    expect(await feed.poll(list.read)).toEqual([]);

    all[0] = auth("a", 12); // changed
    all.push(auth("d", 10.5)); // committed late, within the lookback
    expect((await feed.poll(list.read)).map((a) => a.id).sort()).toEqual(["a", "d"]);
    expect(await feed.poll(list.read)).toEqual([]);
  });

  it("sends everything that matches when nothing matched at the start", async () => {
    const feed = createAuthorizationFeed(undefined);
    feed.open({ data: [], hasMore: false });
    const list = listOf([auth("a", 1), auth("b", 2)]);
    expect((await feed.poll(list.read)).map((a) => a.id)).toEqual(["a", "b"]);
    expect(list.queries[0]!.get("filter")).toBeNull();
  });

  it("reads a backlog page after page up to a cap, and stops on a full page of one instant", async () => {
    const feed = createAuthorizationFeed(undefined);
    feed.open({ data: [auth("start", 0)], hasMore: false });
    const many = Array.from({ length: PAGE_LIMIT * 3 }, (_, i) => auth(`x${i}`, 10 + i / 1000));
    const list = listOf(many);
    expect(await feed.poll(list.read)).toHaveLength(PAGE_LIMIT * 3);
    expect(list.queries.length).toBeLessThanOrEqual(4);

    const sameInstant = createAuthorizationFeed(undefined);
    sameInstant.open({ data: [], hasMore: false });
    const stuck = listOf(Array.from({ length: PAGE_LIMIT * 2 }, (_, i) => auth(`s${i}`, 5)));
    await sameInstant.poll(stuck.read);
    expect(stuck.queries.length).toBeLessThanOrEqual(MAX_PAGES_PER_POLL);
  });

  it("forms a filter and sort the list query language reads: gte on the update time, ascending", () => {
    const spec = scopedResource("card authorization", "engine.authorizations", {
      id: { type: "id", column: "id", sortable: true },
      status: { type: "string", column: "status", sortable: true },
      updatedAt: { type: "date", column: "updated_at", sortable: true },
    });
    const feed = createAuthorizationFeed("status:approved");
    feed.open({ data: [auth("a", 10)], hasMore: false });
    let sent = "";
    void feed.poll(async (query) => {
      sent = query;
      return { data: [], hasMore: false };
    });
    const raw = Object.fromEntries(new URLSearchParams(sent));
    const sql = compileListQuery(parseListQuery(raw, spec), spec, { businessId: "bus.1", mode: "test" });
    expect(sql.text).toContain("(t.status = $3::text) AND (t.updated_at >= $4::timestamptz)");
    expect(sql.text).toContain("ORDER BY t.updated_at ASC, t.id ASC");
    expect(sql.values.slice(2, 4)).toEqual(["approved", at(10 - LOOKBACK_MS / 1000)]);
  });
});
