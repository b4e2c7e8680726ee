/**
 * Merchant categories for the allowedCategories / blockedCategories spending controls: each category is a list of
 * MCC ranges (ISO 18245 codes). A card control names categories. The provider's records also use `flight-ticket`,
 * `betting` and `hospitality` (compatibility notes): these overlap `airlines`, `gambling` and `hotels`, so an MCC may
 * belong to two categories.
 */
import type { MCC_CATEGORY_NAMES } from "@cardhold/contracts";

export type MccCategory = (typeof MCC_CATEGORY_NAMES)[number];

export const MCC_CATEGORIES: Record<MccCategory, string> = {
  airlines: "3000-3350,4511",
  /** Air carriers and the travel agencies that sell their tickets. */
  "flight-ticket": "3000-3350,4511,4722",
  "car-rental": "3351-3500,7512-7519",
  hotels: "3501-3999,7011",
  /** Lodging of every kind: hotels, timeshares, camps and campgrounds. */
  hospitality: "3501-3999,7011-7012,7032-7033",
  transport: "4011-4131,4411-4468,4784,4789",
  travel: "4722,4723",
  telecom: "4812-4816,4821",
  utilities: "4900",
  "fuel-stations": "5541-5542,5983",
  groceries: "5411-5499",
  restaurants: "5811-5814",
  "digital-goods": "5815-5818",
  retail: "5200-5399,5511-5599,5600-5699,5700-5799,5900-5999",
  "atm-cash": "6010-6011",
  "financial-services": "6012-6051,6211-6300,6540",
  gambling: "7800-7802,7995",
  betting: "7800-7802,7995",
  entertainment: "7829-7994,7996-7999",
  "health-care": "8011-8099",
  education: "8211-8299",
  government: "9211-9405",
};
