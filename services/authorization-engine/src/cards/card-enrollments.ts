/**
 * Enrolment of an active card for one-time passwords online (compatibility notes part 2, "Cards: link and enrol"):
 * SafeToken or 3-D Secure, sent to a phone number and/or an e-mail address, each defaulting to the customer's.
 */
import { cardEnrollmentSchema, type CardEnrollment, type CardEnrollmentType } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { findProjectedCustomers, notFound, recordIdempotentAnswer, stateConflict, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { present, type Json } from "../record-shape";
import { SCHEMA } from "../store/accounts.store";
import { findCardEnrollments, upsertCardEnrollment, type CardEnrollmentRow } from "../store/card-enrollments.store";
import { findCard } from "../store/cards.store";

export interface Contact {
  phoneNumber?: string;
  email?: string;
}

const textOf = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * A customer's phone number and e-mail address, from the record the customer projection holds (an individual's
 * individualInformation, a business's businessInformation); nothing for a row projected before records were kept.
 */
export function customerContact(record: Record<string, unknown> | null): Contact {
  const claims = (record?.claims ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const information = claims.individualInformation ?? claims.businessInformation ?? {};
  return present({ phoneNumber: textOf(information.phoneNumber), email: textOf(information.email) }) as Contact;
}

export function toEnrollmentRecord(row: CardEnrollmentRow): Json {
  return present({
    object: "card.enrollment",
    card: row.card_id,
    type: row.type,
    phoneNumber: row.phone_number,
    email: row.email,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

/** What the request gives, each missing part taken from the customer's record. */
async function contactFor(db: Queryable, scope: Scope, customerId: string, request: CardEnrollment): Promise<Contact> {
  const needsDefault = request.phoneNumber === undefined || request.email === undefined;
  const [customer] = needsDefault ? await findProjectedCustomers(db, SCHEMA, scope, [customerId]) : [];
  const contact = { ...customerContact(customer?.record ?? null), ...present({ ...request }) } as Contact;
  if (contact.phoneNumber === undefined && contact.email === undefined)
    throw stateConflict(`Give phoneNumber or email: customer ${customerId} has neither on record`);
  return contact;
}

/**
 * POST /cards/:id/enroll/safetoken and /enroll/3ds, once the card is active. Enrolling again replaces the contact
 * details (200); the first enrolment of a type answers 201.
 */
export async function enrollCard(db: Db, scope: Scope, id: string, type: CardEnrollmentType, body: unknown) {
  const request = validate(cardEnrollmentSchema, body ?? {});
  return db.tx(async (tx) => {
    const card = await findCard(tx, scope, id, true);
    if (!card) throw notFound("Card", id);
    if (card.status !== "active")
      throw stateConflict(`Card ${id} is ${card.status}: a card is enrolled once it is active`);
    const contact = await contactFor(tx, scope, card.customer_id, request);
    const { row, created } = await upsertCardEnrollment(tx, scope, {
      card_id: id,
      type,
      phone_number: contact.phoneNumber ?? null,
      email: contact.email ?? null,
    });
    const status = created ? 201 : 200;
    const record = toEnrollmentRecord(row);
    await recordIdempotentAnswer(tx, status, { code: "success", data: record });
    return { status, record };
  });
}

/** A card record with the card's enrolments, when it has any (GET /cards/:id). */
export async function withEnrollments(db: Queryable, scope: Scope, card: Json): Promise<Json> {
  const enrollments = await findCardEnrollments(db, scope, card.id as string);
  return enrollments.length > 0 ? { ...card, enrollments: enrollments.map(toEnrollmentRecord) } : card;
}
