import { z } from "zod";

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const successOf = <T extends z.ZodType>(data: T) => z.object({ code: z.literal("success"), data });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    code: z.literal("success"),
    data: z.array(item),
    metadata: z.object({ hasMore: z.boolean(), totalCount: z.number().int().optional() }),
  });
