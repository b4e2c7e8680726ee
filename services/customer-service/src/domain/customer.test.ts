import { describe, expect, it } from "vitest";
import { AppError } from "@cardhold/platform";
import { claimsRecord, parseCustomerRequest, storedClaims, toCustomerRecord } from "./customer";

const individual = {
  name: "Ciroma C Adekunle",
  reference: "user-2345",
  type: "individual",
  claims: {
    individualInformation: {
      firstName: "Ciroma",
      lastName: "Adekunle",
      middleName: "Chukwuma",
      email: "ciroma@gmail.com",
      phoneNumber: "+2349154109234",
      title: "Mr",
      gender: "M",
      dateOfBirth: "1997-2-13",
      nationalityCode: "NG",
    },
    individualAddress: {
      city: "Yaba",
      state: "NG-LA",
      countryCode: "NG",
      addressLineOne: "100 herbert macaulay road",
      addressLineTwo: "",
      postalCode: "11041",
    },
    individualIdentity: { type: "bvn", id: "22489035167", url: "https://example.com/id.png", issuingCountry: "NG" },
  },
  verifications: ["tier-2"],
  metadata: { userId: 2345 },
};

function problemsOf(body: unknown): string[] {
  try {
    parseCustomerRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(400);
    return ((error as AppError).errors ?? []).map((e) => e.path);
  }
  throw new Error("expected a validation error");
}

describe("parseCustomerRequest", () => {
  it("accepts the original interface's individual customer, unpadded date included", () => {
    expect(parseCustomerRequest(individual).claims).toHaveProperty("individualInformation.firstName", "Ciroma");
  });

  it("accepts a business customer", () => {
    const business = {
      ...individual,
      type: "business",
      claims: {
        businessInformation: { registrationName: "Acme Ltd", phoneNumber: "+2348000000000", email: "ops@acme.ng" },
        businessIdentity: { type: "cac", id: "RC123456", issuingCountry: "NG" },
        businessDirectors: ["Ada Obi"],
      },
    };
    expect(parseCustomerRequest(business).type).toBe("business");
  });

  it("lists every missing required field at once", () => {
    expect(problemsOf({})).toEqual(["name", "reference", "type", "claims", "verifications", "metadata"]);
  });

  it("lists bad fields of the common part and of the claims together", () => {
    const body = structuredClone(individual);
    body.verifications = ["tier-9"];
    body.claims.individualInformation.email = "not-an-email";
    body.claims.individualInformation.dateOfBirth = "1997-02-30";
    body.claims.individualAddress.countryCode = "Nigeria";
    expect(problemsOf(body).sort()).toEqual(
      [
        "verifications[0]",
        "claims.individualInformation.email",
        "claims.individualInformation.dateOfBirth",
        "claims.individualAddress.countryCode",
      ].sort(),
    );
  });

  it("checks claims against the declared type", () => {
    expect(problemsOf({ ...individual, type: "business" })).toContain("claims.businessInformation");
  });

  it("rejects a non-object body", () => {
    expect(problemsOf("hello")).toEqual(["(body)"]);
  });
});

describe("customer record", () => {
  it("drops identity urls and shows verifications as verified tiers", () => {
    const parsed = parseCustomerRequest(individual);
    const at = new Date("2023-03-14T23:21:12.882Z");
    const record = toCustomerRecord({
      id: "cus.2tXNjMhytgx7hCxu9",
      name: parsed.name,
      reference: parsed.reference,
      type: parsed.type,
      status: "active",
      claims: storedClaims(parsed.claims),
      verifications: parsed.verifications,
      metadata: parsed.metadata,
      created_at: at,
      updated_at: at,
    });
    expect(record.claims).not.toHaveProperty("individualIdentity.url");
    expect(record.verifications).toEqual([{ type: "tier-2", status: "verified" }]);
    expect(record.createdAt).toBe("2023-03-14T23:21:12.882Z");
    expect(record.object).toBe("customer");
  });
});

describe("claims as records show them", () => {
  const address = { city: "Yaba", state: "NG-LA", countryCode: "NG", addressLineOne: "100 herbert macaulay road" };
  it.each<[string, "individual" | "business", Record<string, unknown>, Record<string, unknown>]>([
    [
      'an individual\'s address without postalCode gets ""',
      "individual",
      { individualAddress: address },
      { individualAddress: { ...address, postalCode: "" } },
    ],
    [
      'a stored null postalCode becomes ""',
      "individual",
      { individualAddress: { ...address, postalCode: null } },
      { individualAddress: { ...address, postalCode: "" } },
    ],
    [
      "a given postalCode stays",
      "individual",
      { individualAddress: { ...address, postalCode: "11041" } },
      { individualAddress: { ...address, postalCode: "11041" } },
    ],
    ["no address: none is made up", "individual", { individualInformation: {} }, { individualInformation: {} }],
    ["a business address is left as it is", "business", { businessAddress: address }, { businessAddress: address }],
  ])("%s", (_case, type, claims, expected) => {
    expect(claimsRecord(type, claims)).toEqual(expected);
  });
});
