import { bankPaths } from "./bank-paths";
import { billPaths } from "./bill-paths";
import { payoutPaths } from "./payout-paths";
import { enginePaths } from "./card-paths";
import { disputePaths } from "./dispute-paths";
import { configurationPaths } from "./configuration-paths";
import { consolePaths } from "./console-paths";
import { feePaths } from "./fee-paths";
import { fxPaths } from "./fx-paths";
import { merchantPaths } from "./merchant-paths";
import { paymentRequestPaths } from "./payment-request-paths";
import { finishPaths } from "./finish";
import { withIdempotencyKeys } from "./idempotency";
import { customerPaths, gatewayPaths } from "./platform-paths";
import { requestPaths } from "./request-paths";
import { statsPaths } from "./stats-paths";
import { ERROR_RESPONSES } from "./responses";
import { componentSchemas, type Json } from "./schema";
import { TAGS } from "./tags";
import { eventPaths, webhookPaths } from "./webhook-paths";
import { webhooks } from "./webhooks";

const DESCRIPTION = `Card issuing and real-time card authorization.

Authenticate with \`Authorization: Bearer sk.<mode>.<secret>\`: a test key (\`sk.test.…\`) works on test-mode data and the
simulation, a live key on live data. Bodies are JSON; amounts are integers in minor units (kobo, cents). A success is
\`{"code": "success", "data": …}\`; a list adds \`metadata.hasMore\` (and \`totalCount\` with \`countTotal\`).

Card payments are decided by your webhook: see the webhooks (event deliveries) for what it receives and answers.`;

const SECURITY_SCHEMES = {
  secretKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "sk.<mode>.<secret>",
    description:
      "A secret key: `sk.test.…` or `sk.live.…`. A restricted key holds some of read, write, card-secrets, webhook-secrets.",
  },
  consoleSession: {
    type: "apiKey",
    in: "cookie",
    name: "cardhold_session",
    description:
      "The web console's session (POST /console/api/session): accepted by every route in place of a key, writes " +
      "with it need X-CSRF-Token",
  },
  operatorToken: {
    type: "apiKey",
    in: "header",
    name: "X-Operator-Token",
    description: "The platform operator's OPERATOR_TOKEN",
  },
};

/** The OpenAPI 3.1 document, built from the same zod schemas that validate requests. */
export function openApiDocument(): Json {
  const paths = withIdempotencyKeys(
    finishPaths({
      ...customerPaths(),
      ...webhookPaths(),
      ...eventPaths(),
      ...statsPaths(),
      ...enginePaths(),
      ...feePaths(),
      ...disputePaths(),
      ...paymentRequestPaths(),
      ...fxPaths(),
      ...merchantPaths(),
      ...bankPaths(),
      ...billPaths(),
      ...payoutPaths(),
      ...configurationPaths(),
      ...gatewayPaths(),
      ...requestPaths(),
      ...consolePaths(),
    }),
  );
  const deliveries = webhooks();
  return {
    openapi: "3.1.0",
    info: { title: "Cardhold API", version: "0.1.0", description: DESCRIPTION },
    security: [{ secretKey: [] }],
    tags: TAGS,
    paths,
    webhooks: deliveries,
    components: { schemas: componentSchemas(), responses: ERROR_RESPONSES, securitySchemes: SECURITY_SCHEMES },
  };
}
