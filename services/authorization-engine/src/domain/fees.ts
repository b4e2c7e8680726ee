/** Fee arithmetic is shared with the bill-service (a configured bill-payment fee): it lives in the contracts. */
export { feeCharge, NO_FEE, type FeeTerms } from "@cardhold/contracts";
