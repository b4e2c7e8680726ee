export const BUSINESS_CREATE_USAGE = `usage: cardhold business create --name <name> --webhook-url <url> [--gateway <url>] [--json]
  Creates a business through a running gateway's admin endpoint and prints its test key (shown once).
  Needs OPERATOR_TOKEN in the environment; the gateway is --gateway, else CARDHOLD_URL, else http://127.0.0.1:8080.`;

/** `cardhold business create`: asks a running gateway's admin endpoint for a new business and prints its test key. */
export async function createBusinessCommand(args: { name?: string; "webhook-url"?: string; gateway?: string; json?: boolean }) {
  const gateway = args.gateway ?? process.env.CARDHOLD_URL ?? "http://127.0.0.1:8080";
  const token = process.env.OPERATOR_TOKEN;
  if (!args.name || !args["webhook-url"]) throw new Error("business create needs --name and --webhook-url");
  if (!token) throw new Error("set OPERATOR_TOKEN to the gateway's operator token");
  const response = await fetch(`${gateway}/admin/businesses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-operator-token": token },
    body: JSON.stringify({ name: args.name, webhookUrl: args["webhook-url"] }),
  });
  const body = (await response.json()) as { data?: { business: { id: string }; testKey: string }; message?: string };
  if (!response.ok || !body.data) throw new Error(`gateway answered ${response.status}: ${body.message ?? "no message"}`);
  if (args.json) {
    console.log(JSON.stringify(body.data));
    return;
  }
  console.log(`business ${body.data.business.id} created`);
  console.log(`test key (shown once): ${body.data.testKey}`);
}
