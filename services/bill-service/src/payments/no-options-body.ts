import { z } from "zod";

/**
 * The `{}` body of the payment actions (requeue, resend-events): they take no options. A missing body is taken as
 * `{}` and unknown fields are ignored, as elsewhere; anything but an object is a 400.
 */
export const noOptionsBody = z.object({});
