export * from "./answers.js";
export * from "./events.js";
export * from "./http-handler.js";
export * from "./lien.js";
export * from "./receiver.js";
export * from "./signature.js";
export * from "./store.js";
