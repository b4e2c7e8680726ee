import { describe, expect, it } from "vitest";
import { customerContact } from "./card-enrollments";

describe("customerContact: the defaults of an enrolment", () => {
  const cases: Array<[string, Record<string, unknown> | null, ReturnType<typeof customerContact>]> = [
    [
      "an individual's phone number and e-mail",
      { claims: { individualInformation: { phoneNumber: "+2348031234567", email: "ada@example.com" } } },
      { phoneNumber: "+2348031234567", email: "ada@example.com" },
    ],
    [
      "a business's",
      { claims: { businessInformation: { phoneNumber: "+2348090000000", email: "ops@acme.ng" } } },
      { phoneNumber: "+2348090000000", email: "ops@acme.ng" },
    ],
    [
      "only an e-mail",
      { claims: { individualInformation: { email: "ada@example.com" } } },
      { email: "ada@example.com" },
    ],
    ["empty or non-text values", { claims: { individualInformation: { phoneNumber: "", email: 7 } } }, {}],
    ["a record without claims", { id: "cus.x" }, {}],
    ["no record (projected before records were kept)", null, {}],
  ];
  it.each(cases)("%s", (_name, record, contact) => {
    expect(customerContact(record)).toEqual(contact);
  });
});
