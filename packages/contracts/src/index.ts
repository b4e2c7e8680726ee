export * from "./customer";
export * from "./envelopes";
export * from "./event-kinds";
export * from "./messages";
export * from "./topics";
export * from "./webhook";
