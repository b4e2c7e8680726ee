import type { Mode } from "../api/types";

/** Test or live, on every page: a coloured band with the word in it (colour is never the only cue). */
export function ModeBanner({ mode }: { mode: Mode }) {
  return mode === "live" ? (
    <div className="mode-banner mode-live">
      <strong>LIVE</strong> mode: real cards and real money
    </div>
  ) : (
    <div className="mode-banner mode-test">
      <strong>TEST</strong> mode: simulated cards and money
    </div>
  );
}
