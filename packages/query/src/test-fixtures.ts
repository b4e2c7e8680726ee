/** Resources and rows shared by this package's tests (not exported by the package). */
import { defineResource, scopedResource } from "./resource";

/** A resource with one field of every type. */
export const thingResource = scopedResource(
  "thing",
  "q.things",
  {
    id: { type: "id", column: "id", sortable: true },
    name: { type: "string", column: "name", sortable: true },
    amount: { type: "number", column: "amount", sortable: true },
    rank: { type: "number", column: "rank", sortable: true, nullable: true },
    active: { type: "boolean", column: "active", sortable: true },
    createdAt: { type: "date", column: "created_at", sortable: true },
    tags: { type: "array", column: "tags" },
    metadata: { type: "object", column: "metadata" },
    customer: { type: "id", column: "customer" },
    secret: { type: "string", column: "secret", filterable: false, selectable: false },
  },
  { relations: { customer: "customer" }, maxLimit: 50 },
);

export const customerResource = defineResource({
  name: "customer",
  table: "q.customers",
  idColumn: "id",
  createdColumn: "created_at",
  scope: { business: "business_id", mode: "mode" },
  fields: {
    id: { type: "id", column: "id" },
    name: { type: "string", column: "name" },
    account: { type: "id", column: "account" },
  },
  relations: { account: "account" },
});

export const accountResource = scopedResource("account", "q.accounts", {
  id: { type: "id", column: "id" },
  number: { type: "string", column: "number" },
});

export const SCOPE = { businessId: "bus.one", mode: "test" };

export interface Thing {
  id: string;
  business_id: string;
  mode: string;
  name: string;
  amount: number;
  rank: number | null;
  active: boolean;
  created_at: Date;
  tags: unknown[];
  metadata: Record<string, unknown>;
  customer: string | null;
}

const BASE = Date.parse("2023-03-14T00:00:00.000Z");
const NAMES = ["Ada", "Bola", "ada obi", "Chidi", 'Say "hi"'];

/** 50 varied rows: two businesses, two modes, duplicate names / times / ranks, numbers and strings in metadata. */
export function makeThing(i: number): Thing {
  const tags: unknown[][] = [["a", "b"], ["b"], ["c", 7], []];
  return {
    id: `t.${String(i).padStart(3, "0")}`,
    business_id: i % 10 === 9 ? "bus.two" : "bus.one",
    mode: i % 10 === 8 ? "live" : "test",
    name: NAMES[i % NAMES.length]!,
    amount: ((i * 37) % 100) - 20,
    rank: i % 3 === 0 ? null : i % 4,
    active: i % 3 === 0,
    created_at: new Date(BASE + Math.floor(i / 2) * 60_000),
    tags: tags[i % 4]!,
    metadata: {
      userId: i % 7 === 0 ? String(i) : i,
      tier: i % 2 === 0 ? "gold" : "silver",
      nested: { level: i % 3 },
      ...(i % 5 === 0 ? { flag: true } : {}),
      ...(i % 6 === 1 ? { score: "high" } : { score: i * 1.5 }),
      email: `user${i}@example.com`,
    },
    customer: i % 6 === 0 ? null : `cus.${i % 4}`,
  };
}

export const THINGS: Thing[] = Array.from({ length: 50 }, (_, i) => makeThing(i));

export const inScope = (t: Thing) => t.business_id === SCOPE.businessId && t.mode === SCOPE.mode;
