import { useEffect } from "react";

/** The browser tab's title: the page's own, then the console's name. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Cardhold console`;
  }, [title]);
}
