import { startTestServer } from "@cardhold/db/testing";

/** One embedded PostgreSQL server for the whole `npm test` run; each test file makes its own database on it. */
export default async function setup() {
  return startTestServer();
}
