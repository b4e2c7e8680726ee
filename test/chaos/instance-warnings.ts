/**
 * For a failed chaos run: each instance's own last warnings and errors, so a stalled consumer or a stuck relay shows
 * in the service that had it rather than under whichever instance logged most. A line counts when it is a pino line
 * at warn level or above (40+), or plain text naming an error.
 */
export function instanceWarnings(outputs: Array<{ id: string; text: string }>, perInstance = 12): string {
  return outputs
    .map(({ id, text }) => {
      const lines = text.split("\n").filter(isWarning).slice(-perInstance);
      return lines.length === 0 ? `--- ${id}: no warnings ---` : [`--- ${id} ---`, ...lines].join("\n");
    })
    .join("\n");
}

function isWarning(line: string): boolean {
  if (line.startsWith("{")) {
    try {
      const level = (JSON.parse(line) as { level?: unknown }).level;
      return typeof level === "number" && level >= 40;
    } catch {
      return false;
    }
  }
  return /\b(error|fatal|warn(ing)?)\b/i.test(line);
}
