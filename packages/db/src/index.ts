export * from "./db";
export * from "./embedded-postgres";
export * from "./migrate";
