export * from "./db";
export * from "./embedded-postgres";
export * from "./migrate";
export * from "./write-batch";
export * from "./group-commit";
export { isDatabaseUnavailable } from "./database-unavailable";
