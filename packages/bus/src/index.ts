export * from "./bus";
export * from "./inbox";
export * from "./kafka-bus";
export * from "./memory-bus";
export * from "./messaging-tables";
export * from "./outbox";
export * from "./partition";
export * from "./message-id";
