import type { BillCategory, BillProduct, CategoryId, InputSpec, OutputSpec } from "./bill-product";

/**
 * The bill catalog. Product ids are written once here and never change: clients store them. Prices, bounds and fees
 * are integer minor units (kobo, cents).
 */
export const CATEGORIES: readonly BillCategory[] = [
  {
    id: "airtime",
    object: "bill.category",
    name: "Airtime",
    description: "Mobile airtime top-up of any amount within the product's bounds",
  },
  {
    id: "mobile-data",
    object: "bill.category",
    name: "Mobile data",
    description: "Mobile data bundles at a fixed price",
  },
  {
    id: "electricity",
    object: "bill.category",
    name: "Electricity",
    description: "Prepaid meter tokens and postpaid bill payments",
  },
  {
    id: "cable-tv",
    object: "bill.category",
    name: "Cable TV",
    description: "Cable and satellite TV subscription renewals",
  },
];

const NG_PHONE = "^(\\+234|0)[789][01]\\d{8}$";

const phoneInput = (pattern = NG_PHONE, example = "08031234567"): InputSpec => ({
  name: "phoneNumber",
  label: "Phone number",
  type: "string",
  required: true,
  pattern,
  example,
});
const amountInput = (minAmount: number, maxAmount: number): InputSpec => ({
  name: "amount",
  label: "Amount (minor units)",
  type: "amount",
  required: true,
  minAmount,
  maxAmount,
});
const numberInput = (name: string, label: string, pattern: string, example: string): InputSpec => ({
  name,
  label,
  type: "string",
  required: true,
  pattern,
  example,
});

const CONFIRMATION: OutputSpec[] = [{ name: "confirmationCode", description: "The network's confirmation code" }];
const RECEIPT: OutputSpec[] = [{ name: "receiptNumber", description: "The biller's receipt number" }];
const TOKEN: OutputSpec[] = [
  { name: "token", description: "20-digit prepaid token to key into the meter (groups of 4 digits)" },
  { name: "units", description: "Energy bought, kWh (decimal string)" },
];

interface ProductDraft extends Omit<BillProduct, "object" | "fee"> {
  fee: number;
}

const product = (draft: ProductDraft): BillProduct => ({
  ...draft,
  object: "bill.product",
  fee: { type: "flat", amount: draft.fee },
});

export const PRODUCTS: readonly BillProduct[] = [
  product({
    id: "bp.11pALsZ5g3CTGabps",
    name: "MTN Airtime",
    category: "airtime",
    biller: "mtn-ng",
    billerName: "MTN Nigeria",
    currency: "NGN",
    price: null,
    fee: 0,
    inputs: [phoneInput(), amountInput(5_000, 5_000_000)],
    accountInput: "phoneNumber",
    output: CONFIRMATION,
  }),
  product({
    id: "bp.11pALsZ5nFBaDnRP5",
    name: "Airtel Airtime",
    category: "airtime",
    biller: "airtel-ng",
    billerName: "Airtel Nigeria",
    currency: "NGN",
    price: null,
    fee: 0,
    inputs: [phoneInput(), amountInput(5_000, 5_000_000)],
    accountInput: "phoneNumber",
    output: CONFIRMATION,
  }),
  product({
    id: "bp.11pALsZ5pEtYdYb1z",
    name: "MTN Data 1.5 GB, 30 days",
    category: "mobile-data",
    biller: "mtn-ng",
    billerName: "MTN Nigeria",
    currency: "NGN",
    price: 100_000,
    fee: 0,
    inputs: [phoneInput()],
    accountInput: "phoneNumber",
    output: CONFIRMATION,
  }),
  product({
    id: "bp.11pALsZ5s6Nj2xNHy",
    name: "Airtel Data 10 GB, 30 days",
    category: "mobile-data",
    biller: "airtel-ng",
    billerName: "Airtel Nigeria",
    currency: "NGN",
    price: 300_000,
    fee: 0,
    inputs: [phoneInput()],
    accountInput: "phoneNumber",
    output: CONFIRMATION,
  }),
  product({
    id: "bp.11pALsZ5v2NiSC34t",
    name: "Ikeja Electric prepaid",
    category: "electricity",
    biller: "ikeja-electric",
    billerName: "Ikeja Electric (IKEDC)",
    currency: "NGN",
    price: null,
    fee: 10_000,
    inputs: [
      numberInput("meterNumber", "Meter number", "^\\d{11,13}$", "45000000001"),
      amountInput(100_000, 50_000_000),
    ],
    accountInput: "meterNumber",
    output: TOKEN,
  }),
  product({
    id: "bp.11pALsZ5zHAkcPBjP",
    name: "Ikeja Electric postpaid",
    category: "electricity",
    biller: "ikeja-electric",
    billerName: "Ikeja Electric (IKEDC)",
    currency: "NGN",
    price: null,
    fee: 10_000,
    inputs: [
      numberInput("accountNumber", "Customer account number", "^\\d{10,12}$", "0100000001"),
      amountInput(100_000, 100_000_000),
    ],
    accountInput: "accountNumber",
    output: RECEIPT,
  }),
  product({
    id: "bp.11pALsZ63SKH4cJAC",
    name: "Eko Electric prepaid",
    category: "electricity",
    biller: "eko-electric",
    billerName: "Eko Electricity Distribution (EKEDC)",
    currency: "NGN",
    price: null,
    fee: 10_000,
    inputs: [
      numberInput("meterNumber", "Meter number", "^\\d{11,13}$", "04000000001"),
      amountInput(100_000, 50_000_000),
    ],
    accountInput: "meterNumber",
    output: TOKEN,
  }),
  product({
    id: "bp.11pALsZ669No5WrkT",
    name: "DStv Compact, 1 month",
    category: "cable-tv",
    biller: "multichoice-dstv",
    billerName: "MultiChoice DStv",
    currency: "NGN",
    price: 1_900_000,
    fee: 10_000,
    inputs: [numberInput("smartcardNumber", "Smartcard number", "^\\d{10}$", "7000000001")],
    accountInput: "smartcardNumber",
    output: RECEIPT,
  }),
  product({
    id: "bp.11pALsZ69FMcBhkej",
    name: "GOtv Max, 1 month",
    category: "cable-tv",
    biller: "multichoice-gotv",
    billerName: "MultiChoice GOtv",
    currency: "NGN",
    price: 850_000,
    fee: 5_000,
    inputs: [numberInput("iucNumber", "IUC number", "^\\d{10}$", "2000000001")],
    accountInput: "iucNumber",
    output: RECEIPT,
  }),
  product({
    id: "bp.11pALsZ6CP5xuxU6d",
    name: "US prepaid mobile top-up",
    category: "airtime",
    biller: "us-topup",
    billerName: "US Prepaid Top-up",
    currency: "USD",
    price: null,
    fee: 50,
    inputs: [phoneInput("^\\+1[2-9]\\d{9}$", "+12025550101"), amountInput(500, 10_000)],
    accountInput: "phoneNumber",
    output: CONFIRMATION,
  }),
];

const BY_ID = new Map<string, BillProduct>(PRODUCTS.map((p) => [p.id, p]));

export function findProduct(id: string): BillProduct | undefined {
  return BY_ID.get(id);
}

export function findCategory(id: string): BillCategory | undefined {
  return CATEGORIES.find((c) => c.id === id);
}

export const categoryIds = (): CategoryId[] => CATEGORIES.map((c) => c.id);
