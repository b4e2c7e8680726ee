import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for this process. V8 allocates objects of an allocation site straight in
 * the old generation once enough of them outlived a young-generation collection; the objects of a request (result
 * rows, records, HTTP parts) live for milliseconds, but one burst or one long wait is enough to tenure their sites,
 * and from then on every request's garbage fills the old generation, whose collections stop the process for 3–9 ms
 * each. Measured (bench/README.md, twenty-sixth session): 20 authorizations a second in the all-in-one grew the old
 * generation by 401–414 KB a second with pretenuring, 229–237 without. Set before a process serves anything.
 */
export function keepShortLivedObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
