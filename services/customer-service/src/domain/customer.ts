import {
  businessClaimsSchema,
  customerBaseSchema,
  individualClaimsSchema,
  type CustomerRecord,
  type CustomerRequest,
} from "@cardhold/contracts";
import { AppError, zodProblems, type FieldProblem } from "@cardhold/platform";

/**
 * Validates a create or update body. The common fields and the claims of the given type are checked separately so
 * that one answer lists every bad field.
 */
export function parseCustomerRequest(body: unknown): CustomerRequest {
  const base = customerBaseSchema.safeParse(body);
  const problems: FieldProblem[] = base.success ? [] : zodProblems(base.error);
  const raw = (body ?? {}) as { type?: unknown; claims?: unknown };
  const claimsSchema =
    raw.type === "individual" ? individualClaimsSchema : raw.type === "business" ? businessClaimsSchema : undefined;
  let claims: CustomerRequest["claims"] | undefined;
  if (claimsSchema && typeof raw.claims === "object" && raw.claims !== null) {
    const parsed = claimsSchema.safeParse(raw.claims);
    if (parsed.success) claims = parsed.data;
    else problems.push(...zodProblems(parsed.error).map((p) => ({ ...p, path: `claims.${p.path}` })));
  }
  if (problems.length > 0 || !base.success || !claims) {
    throw new AppError(400, "invalid-request", `Invalid customer: ${problems.map((p) => p.path).join(", ")}`, problems);
  }
  return { ...base.data, claims };
}

/** Identity documents' `url` is accepted on requests but never stored or returned. */
export function storedClaims(claims: CustomerRequest["claims"]): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(claims);
  for (const key of ["individualIdentity", "businessIdentity"]) {
    const identity = copy[key] as Record<string, unknown> | undefined;
    if (identity) delete identity.url;
  }
  return copy;
}

export interface CustomerRow {
  id: string;
  name: string;
  reference: string;
  type: "individual" | "business";
  status: "active";
  claims: Record<string, unknown>;
  verifications: string[];
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/**
 * The claims as records show them: an individual's address always carries `postalCode` (the original interface has it
 * in every customer response but never asks for it), "" when it was never given — not a made-up code. A customer
 * without an address gets no address.
 */
export function claimsRecord(type: CustomerRow["type"], claims: Record<string, unknown>): Record<string, unknown> {
  const address = claims.individualAddress as Record<string, unknown> | undefined;
  if (type !== "individual" || !address || typeof address.postalCode === "string") return claims;
  return { ...claims, individualAddress: { ...address, postalCode: "" } };
}

/** The public record, fields in the order the original interface shows them. */
export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return {
    name: row.name,
    reference: row.reference,
    type: row.type,
    status: row.status,
    claims: claimsRecord(row.type, row.claims),
    verifications: row.verifications.map((type) => ({ type: type as "tier-1", status: "verified" as const })),
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    id: row.id,
    object: "customer",
  };
}
