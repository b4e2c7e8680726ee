import { isValidNuban } from "./nuban";

export const BANK_TYPES = ["commercial", "merchant", "non-interest", "microfinance"] as const;
export type BankType = (typeof BANK_TYPES)[number];

/** A Nigerian bank the platform knows (GET /tools/banks). */
export interface Bank {
  object: "bank";
  name: string;
  /**
   * The CBN code: 3 digits for a deposit money bank (`058`), 5 for another financial institution (`50211`). The
   * NUBAN check digit is computed with it, and it is the `bankCode` the bank tools answer with.
   */
  code: string;
  /** The NIBSS Instant Payment (NIP) institution code, 6 digits (`000013`): what transfers name a bank by. */
  nipCode: string;
  type: BankType;
}

const bank = (name: string, code: string, nipCode: string, type: BankType): Bank => ({
  object: "bank",
  name,
  code,
  nipCode,
  type,
});

/** Licensed and operating; in alphabetical order, the list's default order. */
export const BANKS: readonly Bank[] = [
  bank("Access Bank", "044", "000014", "commercial"),
  bank("Access Bank (Diamond)", "063", "000005", "commercial"),
  bank("Citibank Nigeria", "023", "000009", "commercial"),
  bank("Coronation Merchant Bank", "559", "060001", "merchant"),
  bank("Ecobank Nigeria", "050", "000010", "commercial"),
  bank("Fidelity Bank", "070", "000007", "commercial"),
  bank("First Bank of Nigeria", "011", "000016", "commercial"),
  bank("First City Monument Bank", "214", "000003", "commercial"),
  bank("FSDH Merchant Bank", "501", "060002", "merchant"),
  bank("Guaranty Trust Bank", "058", "000013", "commercial"),
  bank("Jaiz Bank", "301", "000006", "non-interest"),
  bank("Keystone Bank", "082", "000002", "commercial"),
  bank("Kuda Microfinance Bank", "50211", "090267", "microfinance"),
  bank("Lotus Bank", "303", "000029", "non-interest"),
  bank("Moniepoint Microfinance Bank", "50515", "090405", "microfinance"),
  bank("Polaris Bank", "076", "000008", "commercial"),
  bank("Providus Bank", "101", "000023", "commercial"),
  bank("Rand Merchant Bank", "502", "000024", "merchant"),
  bank("Stanbic IBTC Bank", "221", "000012", "commercial"),
  bank("Standard Chartered Bank", "068", "000021", "commercial"),
  bank("Sterling Bank", "232", "000001", "commercial"),
  bank("SunTrust Bank", "100", "000022", "commercial"),
  bank("TAJ Bank", "302", "000026", "non-interest"),
  bank("Titan Trust Bank", "102", "000025", "commercial"),
  bank("Union Bank of Nigeria", "032", "000018", "commercial"),
  bank("United Bank for Africa", "033", "000004", "commercial"),
  bank("Unity Bank", "215", "000011", "commercial"),
  bank("Wema Bank", "035", "000017", "commercial"),
  bank("Zenith Bank", "057", "000015", "commercial"),
];

/** The bank with this CBN code (`058`) or NIP code (`000013`): the interface names banks both ways. */
export const findBank = (code: string): Bank | undefined => BANKS.find((b) => b.code === code || b.nipCode === code);

/**
 * The banks at which this account number's check digit is right: the ones it may belong to. About one bank in ten
 * passes by chance, and the real bank is missing when the list lacks it.
 */
export const banksFor = (accountNumber: string): Bank[] => BANKS.filter((b) => isValidNuban(b.code, accountNumber));
