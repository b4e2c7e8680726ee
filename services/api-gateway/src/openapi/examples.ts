/** Examples of the main calls and records; document.test.ts checks each against its schema. */
export const IDS = {
  customer: "cus.2tVZh8GkvSJu6xgRJ",
  program: "c.prg.2tVZh9Rq3mY7wKpLd",
  card: "c.2tVghquVL5LxCkjB3",
  account: "ac.2tVZhB4nQe8sWmRtu",
  settlement: "ac.2tVZh7pXcF3kDq9Ma",
  authorization: "c.auth.2tW3sESJQ4ZW9DKSG",
  transaction: "c.txn.2tW3sFa8YhLqT2mNb",
  event: "evt.2tXJoYkRayFK8H9Eq",
  webhook: "wh.2tVZh6Tq8LmNa3KcE",
  payment: "p.2tW4aR7sKd3MpQx9L",
  product: "bp.11pALsZ5g3CTGabps",
} as const;

const AT = "2025-03-14T18:22:51.000Z";
const stamps = { createdAt: AT, updatedAt: AT };

export const customerRequest = {
  name: "Ciroma C Adekunle",
  reference: "user-2345",
  type: "individual",
  claims: {
    individualInformation: {
      firstName: "Ciroma",
      lastName: "Adekunle",
      email: "ciroma@example.com",
      phoneNumber: "+2349154109234",
      dateOfBirth: "1997-02-13",
      nationalityCode: "NG",
    },
    individualIdentity: { type: "bvn", id: "22489035167", issuingCountry: "NG" },
  },
  verifications: ["tier-2"],
  metadata: { userId: 2345 },
};

export const customer = {
  id: IDS.customer,
  object: "customer",
  ...customerRequest,
  status: "active",
  verifications: [{ type: "tier-2", status: "verified" }],
  ...stamps,
};

export const programRequest = {
  name: "Virtual NGN",
  network: "verve",
  type: "virtual",
  currency: "NGN",
  authorization: { fundingSourceType: "settlement-account", transactionFee: 1000, timeoutDefault: "decline" },
};

export const cardRequest = {
  program: IDS.program,
  customer: IDS.customer,
  reference: "card-1",
  cardHolderName: "Ciroma Adekunle",
  controls: { blockedCategories: ["gambling"], spendingLimits: [{ amount: 5_000_000, interval: "monthly" }] },
  metadata: { walletId: "w-2345" },
};

export const card = {
  id: IDS.card,
  object: "card",
  type: "virtual",
  network: "verve",
  status: "inactive",
  currency: "NGN",
  customer: IDS.customer,
  program: IDS.program,
  reference: "card-1",
  fundingSource: IDS.settlement,
  details: { last4: "4921", expiry: "03/28", cardHolderName: "Ciroma Adekunle" },
  controls: cardRequest.controls,
  metadata: cardRequest.metadata,
  ...stamps,
};

export const accountRequest = {
  name: "Ciroma's wallet",
  currency: "NGN",
  type: "virtual",
  customer: IDS.customer,
  reference: "wallet-2345",
  depositChannels: ["bank-account"],
};

export const webhookRequest = {
  name: "Card decisions",
  url: "https://wallet.example.com/cardhold/events",
  events: ["card.authorization.request", "card.authorization.update", "card.authorization.closed"],
  timeoutDefault: "decline",
  standIn: { rules: [{ name: "small", approveUpTo: 500_000, perCardDaily: 2_000_000 }], otherwise: "decline" },
};

export const billPaymentRequest = {
  product: IDS.product,
  inputs: { phoneNumber: "08031234567", amount: 50_000 },
  customer: IDS.customer,
  reference: "airtime-2345-1",
};

export const payment = {
  id: IDS.payment,
  object: "payment",
  type: "bill",
  status: "successful",
  amount: 50_000,
  currency: "NGN",
  fees: 0,
  feeBreakdown: [],
  account: IDS.settlement,
  fundingSource: IDS.settlement,
  method: "bill",
  methodData: {
    product: IDS.product,
    productName: "MTN Airtime",
    category: "airtime",
    biller: "mtn-ng",
    inputs: { phoneNumber: "08031234567", amount: "50000" },
    accountNumber: "08031234567",
    accountName: "CIROMA ADEKUNLE",
    billerReference: "MTN-7731942",
    output: { confirmationCode: "A7731942" },
  },
  customer: IDS.customer,
  reference: "airtime-2345-1",
  failureReason: null,
  events: [IDS.event],
  metadata: {},
  ...stamps,
};

export const captureRequest = {
  channel: "online",
  amount: 500_000,
  fees: 0,
  mcc: "5411",
  merchantDescriptor: "SHOPRITE LEKKI LAGOS NG",
};

const networkData = {
  network: "verve",
  reference: "1678818170917",
  rrn: "301234567890",
  stan: "123456",
  txnReference: "5951474897",
  cardAcceptorNameLocation: "SHOPRITE LEKKI LAGOS NG",
  terminalId: "CHSIM001",
};

/** A capture as the receiver is asked about it (card.authorization.request). */
export const pendingCapture = {
  id: IDS.authorization,
  object: "card.authorization",
  card: IDS.card,
  customer: IDS.customer,
  account: IDS.settlement,
  type: "capture",
  status: "pending",
  amount: 500_000,
  fees: 1000,
  currency: "NGN",
  channel: "online",
  mcc: "5411",
  reserved: true,
  networkData,
  metadata: {},
  ...stamps,
};

export const approvedCapture = {
  ...pendingCapture,
  status: "approved",
  decisionType: "direct-response",
  reserved: false,
};

export const pendingCheck = { ...pendingCapture, type: "check", amount: 0, fees: 0, reserved: false };

export const transaction = {
  id: IDS.transaction,
  object: "card.transaction",
  authorization: IDS.authorization,
  source: IDS.authorization,
  card: IDS.card,
  customer: IDS.customer,
  type: "capture",
  channel: "online",
  currency: "NGN",
  amount: -500_000,
  fees: -1000,
  mcc: "5411",
  networkData,
  createdAt: AT,
  updatedAt: AT,
};

/** The answers a receiver gives to a decision event (packages/receiver: approve, approveCheck, decline). */
export const ANSWERS = {
  approve: { summary: "Approve a capture or an amount change", value: { action: "approve" } },
  approveCheck: {
    summary: "Approve a check: the balance and the holder's name are required",
    value: { action: "approve", cardBalance: 1_250_000, cardHolderName: "Ciroma Adekunle" },
  },
  decline: { summary: "Decline, with a code", value: { action: "decline", code: "insufficient-funds" } },
};
