import { scopedResource } from "./types";

/** A resource with one field of every type, used by this package's tests. */
export const thingResource = scopedResource("thing", "q.things", {
  id: { type: "id", column: "id", sortable: true },
  name: { type: "string", column: "name", sortable: true },
  amount: { type: "number", column: "amount", sortable: true },
  active: { type: "boolean", column: "active" },
  createdAt: { type: "date", column: "created_at", sortable: true },
  tags: { type: "array", column: "tags" },
  metadata: { type: "object", column: "metadata" },
  customer: { type: "id", column: "customer" },
  secret: { type: "string", column: "secret", filterable: false, selectable: false },
}, { relations: { customer: "customer" }, maxLimit: 50 });
