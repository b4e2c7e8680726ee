import { randomUUID } from "node:crypto";

/** Message ids only need to be unique; consumers record them in their inbox. */
export const newMessageId = () => `msg.${randomUUID()}`;
