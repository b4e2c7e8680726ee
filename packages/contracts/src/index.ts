export * from "./customer";
export * from "./envelopes";
export * from "./event-kinds";
export * from "./messages";
export * from "./topics";
export * from "./webhook";
export * from "./ledger";
export * from "./cards";
