export * from "./db";
export type { NotificationListener } from "./notification-listener";
export * from "./embedded-postgres";
export * from "./migrate";
export * from "./write-batch";
export * from "./group-commit";
export { isDatabaseUnavailable } from "./database-unavailable";
