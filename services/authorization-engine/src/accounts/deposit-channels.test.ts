import { describe, expect, it } from "vitest";
import { customerFullName } from "./deposit-channels";

const individual = (information: Record<string, unknown>) => ({
  name: "Ciroma C Adekunle",
  record: { type: "individual", claims: { individualInformation: information } },
});

describe("a customer's full name, as a deposit channel's account name", () => {
  it.each<[string, Parameters<typeof customerFullName>[0], string]>([
    [
      "an individual: first, middle and last names",
      individual({ firstName: "Ciroma", middleName: "Chukwuma", lastName: "Adekunle" }),
      "Ciroma Chukwuma Adekunle",
    ],
    ["no middle name", individual({ firstName: "Ada", lastName: "Obi" }), "Ada Obi"],
    ["blank parts are left out", individual({ firstName: " Ada ", middleName: "", lastName: "Obi" }), "Ada Obi"],
    ["an individual without names in the claims: the name", individual({}), "Ciroma C Adekunle"],
    [
      "a business: its name",
      { name: "Acme Ltd", record: { type: "business", claims: { businessInformation: { registrationName: "Acme" } } } },
      "Acme Ltd",
    ],
    ["a projection row without its record: the name", { name: "Ada Obi", record: null }, "Ada Obi"],
  ])("%s", (_case, customer, expected) => {
    expect(customerFullName(customer)).toBe(expected);
  });
});
