import { feeCharge, type FeeTerms } from "@cardhold/contracts";
import type { BillProduct } from "./bill-product";
import { feeBreakdownOf, type FeeItem } from "./payment-record";

/** The fee a business configured for bill payments (PUT /tools/configuration/payment, fees.billPayment). */
export interface ConfiguredFee {
  id: string;
  currency: string;
  terms: FeeTerms;
}

export interface BillFee {
  /** Minor units, charged on top of the amount. */
  fee: number;
  /** How the payment itemises it: an item naming a fee (`fee`) is the configured fee. */
  breakdown: FeeItem[];
}

/**
 * What a bill costs on top of its amount: the configured bill-payment fee's charge on the amount when one is
 * configured in the bill's currency (a fee is never charged across currencies), else the product's own flat fee.
 */
export function billFee(product: BillProduct, amount: number, configured: ConfiguredFee | null): BillFee {
  if (configured && configured.currency === product.currency) {
    const charged = feeCharge(configured.terms, amount);
    const item: FeeItem = {
      amount: charged,
      group: "bill-payment",
      type: configured.terms.structure,
      fee: configured.id,
    };
    return { fee: charged, breakdown: [item] };
  }
  return { fee: product.fee.amount, breakdown: feeBreakdownOf(product.fee.amount) };
}
