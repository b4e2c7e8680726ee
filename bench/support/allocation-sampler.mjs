// Loaded into a benched platform process (node --import) by bench/support/allocations.ts. SIGUSR2 starts V8's sampling
// heap profiler, counting what the collector has freed too (everything allocated, not only what is still alive); the
// next SIGUSR2 stops it and writes the profile to ALLOCATION_PROFILE_DIR/allocations-<n>.json.
import { renameSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import process from "node:process";

const session = new Session();
session.connect();
let sampling = false;
let written = 0;

process.on("SIGUSR2", () => {
  if (!sampling) {
    sampling = true;
    session.post("HeapProfiler.startSampling", {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  sampling = false;
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return;
    const file = join(process.env.ALLOCATION_PROFILE_DIR, `allocations-${written++}.json`);
    // Written aside and renamed: the reader waits for the name and never sees half a file.
    writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
    renameSync(`${file}.partial`, file);
  });
});
