import { describe, expect, it } from "vitest";
import { FILTER_FORMAT_ERROR, FILTER_FORMAT_MESSAGE, QueryError } from "./errors";
import { parseListQuery } from "./parse-params";
import { thingResource } from "./test-fixtures";

function errorOf(raw: Record<string, unknown>): QueryError {
  try {
    parseListQuery(raw, thingResource);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    return error as QueryError;
  }
  throw new Error(`expected a QueryError for ${JSON.stringify(raw)}`);
}

describe("a malformed filter gets exactly the interface's body", () => {
  it("is the contract: two keys, this message", () => {
    expect(FILTER_FORMAT_MESSAGE).toBe("The format of the filter parameter is incorrect");
    expect(FILTER_FORMAT_ERROR).toEqual({ statusCode: 400, message: FILTER_FORMAT_MESSAGE });
  });

  it.each([
    ['name:"unterminated'],
    ["name:<unterminated"],
    ['name:"a\\"'],
    ["name:<a\\>"],
    ['name:"a"b'],
    ["name:<a>b"],
    ["name"],
    ["name|"],
    ["name|eq"],
    ["name|eq|"],
    ["name|like"],
    ["name|bogus|1"],
    ["name|EQUALS|1"],
    ["name||x"],
    ["|eq|1"],
    [":x"],
    ["=x"],
    ["-:x"],
    ["name:"],
    ["name="],
    ["name!x"],
    ["-name>3"],
    ["-name=3"],
    ["-name!=3"],
    ["-name|eq|3"],
    ["name.:x"],
    ["1name:x"],
    ["na me:x"],
    ["name:a other"],
    ["name:ok bad"],
    ["ünï:x"],
    ["--name:x"],
    ["name:x |eq|y"],
  ])("%j", (filter) => {
    const error = errorOf({ filter });
    expect(error.code).toBe("invalid-filter");
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ statusCode: 400, message: "The format of the filter parameter is incorrect" });
    expect(Object.keys(error.body)).toEqual(["statusCode", "message"]);
  });

  it("in or, nor and and as well, and before any field is checked", () => {
    for (const key of ["or", "nor", "and"]) expect(errorOf({ [key]: "name|x" }).body).toEqual(FILTER_FORMAT_ERROR);
    expect(errorOf({ filter: "colour:red", or: 'name:"open' }).body).toEqual(FILTER_FORMAT_ERROR);
    expect(errorOf({ filter: ["name:Ada", "name"] }).body).toEqual(FILTER_FORMAT_ERROR);
  });
});

describe("every other problem is a 400 naming it", () => {
  it.each<[Record<string, unknown>, RegExp]>([
    [{ filter: "colour:red" }, /unknown field "colour" in filter/],
    [{ or: "colour:red" }, /unknown field "colour" in or/],
    [{ filter: "constructor:x" }, /unknown field "constructor"/],
    [{ filter: "__proto__:x" }, /unknown field "__proto__"/],
    [{ filter: "secret:x" }, /field "secret" cannot be filtered/],
    [{ filter: "name.first:x" }, /"name" has no nested fields/],
    [{ filter: "customer.name:x" }, /"customer" has no nested fields/],
    [{ filter: "tags.x:1" }, /"tags" has no nested fields/],
    [{ filter: "amount:ten" }, /field "amount" takes a number, not "ten"/],
    [{ filter: "amount|in|1,x" }, /takes a number, not "x"/],
    [{ filter: "amount>1e3" }, /takes a number/],
    [{ filter: `amount>${"9".repeat(400)}` }, /too large a number/],
    [{ filter: "createdAt|gtd|yesterday" }, /"yesterday" is not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-02-30" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-02-29" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-13-01" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-03-14T24:00:00Z" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-03-14T10:61:00Z" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-03-14T10:00:00+25:00" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|14/03/2023" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|0000-01-01" }, /not an ISO 8601 date/],
    [{ filter: "createdAt>99999999999999999" }, /not an ISO 8601 date/],
    [{ filter: "tags|size|abc" }, /size takes a whole number, not "abc"/],
    [{ filter: "tags|nsize|-1" }, /nsize takes a whole number/],
    [{ filter: "tags|size|99999999999" }, /whole number/],
    [{ filter: "name|size|2" }, /operator size does not apply to field "name" \(string\)/],
    [{ filter: "name|all|a" }, /operator all does not apply/],
    [{ filter: "amount~1" }, /operator like does not apply to field "amount" \(number\)/],
    [{ filter: "active>true" }, /operator gt does not apply to field "active" \(boolean\)/],
    [{ filter: "name|gtd|2023-01-01" }, /operator gtd does not apply/],
    [{ filter: "tags>1" }, /operator gt does not apply to field "tags" \(array\)/],
    [{ filter: "metadata:x" }, /operator eq does not apply to field "metadata" \(object\)/],
    [{ filter: "metadata.a|size|1" }, /operator size does not apply to a path inside "metadata"/],
    [{ filter: "metadata.a|gtd|2023-01-01" }, /operator gtd does not apply to a path inside "metadata"/],
    [{ filter: "active:maybe" }, /field "active" takes true or false, not "maybe"/],
    [{ filter: "name|exists|yes" }, /exists takes true or false, not "yes"/],
    [{ filter: "name~(" }, /"\(" is not a valid regular expression/],
    [{ filter: "name|in|a,,b" }, /comma-separated list without empty items/],
    [{ filter: "name:a\u0000b" }, /parameter "filter" contains a NUL character/],
    [{ filter: "name:\ud800" }, /invalid text/],
    [{ filter: "x:1 ".repeat(101) }, /at most 100 filter expressions/],
    [{ filter: `name:${"x".repeat(9000)}` }, /parameter "filter" is longer than 8192 characters/],
    [{ filter: { a: "b" } }, /parameter "filter" must be a plain value/],
    [{ filter: ["a:1", { b: "c" }] }, /parameter "filter" must be a plain value/],
    [{ select: "metadata.key" }, /select "metadata.key" is deeper than allowed \(depth 1\)/],
    [{ select: "name -amount" }, /either fields to include or -fields to exclude, not both/],
    [{ select: "nope" }, /unknown field "nope" in select/],
    [{ select: "secret" }, /unknown field "secret" in select/],
    [{ select: "-" }, /unknown field "" in select/],
    [{ expand: "customer.account.owner" }, /expand "customer.account.owner" is deeper than allowed \(depth 2\)/],
    [{ expand: "name" }, /"name" cannot be expanded: thing has no expandable field "name"/],
    [{ expand: "constructor" }, /cannot be expanded/],
    [{ expand: "customer:a:b" }, /expand "customer:a:b" is not path or path:field1,field2/],
    [{ expand: "customer:" }, /is not path or path:field1,field2/],
    [{ expand: "customer:a,,b" }, /is not path or path:field1,field2/],
    [{ expand: "customer..account" }, /is not path or path:field1,field2/],
    [{ sort: "colour" }, /unknown sort field "colour"/],
    [{ sort: "tags" }, /field "tags" cannot be sorted on/],
    [{ sort: "customer" }, /field "customer" cannot be sorted on/],
    [{ sort: "name -name" }, /sort names field "name" more than once/],
    [{ sort: "--name" }, /unknown sort field "-name"/],
    [{ limit: "0" }, /limit must be a whole number from 1 to 50, not "0"/],
    [{ limit: "51" }, /from 1 to 50/],
    [{ limit: "ten" }, /limit/],
    [{ limit: "2.5" }, /limit/],
    [{ limit: "-1" }, /limit/],
    [{ limit: "" }, /limit/],
    [{ limit: " 5" }, /limit/],
    [{ limit: "99999999999999999999" }, /limit/],
    [{ limit: ["1", "2"] }, /parameter "limit" was given more than once/],
    [{ countTotal: ["true", "true"] }, /parameter "countTotal" was given more than once/],
    [{ after: ["t.001", "t.002"] }, /parameter "after" was given more than once/],
    [{ after: { a: "b" } }, /parameter "after" must be a plain value/],
    [{ after: "x'; DROP" }, /after must be the id of an item/],
    [{ before: "" }, /before must be the id of an item/],
    [{ after: "t.001", before: "t.002" }, /give before or after, not both/],
    [{ countTotal: "maybe" }, /countTotal takes true or false/],
    [{ countTotal: "1" }, /countTotal takes true or false/],
  ])("%j", (raw, message) => {
    const error = errorOf(raw);
    expect(error.code).toBe("invalid-query");
    expect(error.body).toEqual({ statusCode: 400, code: "invalid-query", message: error.message });
    expect(error.message).toMatch(message);
  });
});
