// A steady workload for garbage-collection.test.ts: a live set of 200 arrays of ~100 KB, each replaced in turn, so
// that what survives a young collection fills the old generation. Prints V8's own line for each collection
// (--trace-gc). Argument `tuned`: tuneGarbageCollector first.
import { setFlagsFromString } from "node:v8";
import { tuneGarbageCollector } from "./garbage-collection";

if (process.argv[2] === "tuned") tuneGarbageCollector();
setFlagsFromString("--trace-gc");
const slots: number[][] = new Array(200);
for (let i = 0; i < 20_000; i++) slots[i % slots.length] = new Array(12_500).fill(i);
