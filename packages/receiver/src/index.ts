export * from "./answers";
export * from "./events";
export * from "./express";
export * from "./lien";
export * from "./receiver";
export * from "./signature";
export * from "./store";
