import { useLocation, useSearch } from "wouter";

/** A list's filter kept in the page's address (`?filter=…`), so a filtered list can be linked to and reloaded. */
export function useUrlFilter(): [string, (filter: string) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filter = new URLSearchParams(search).get("filter") ?? "";
  const setFilter = (next: string) =>
    navigate(next ? `${location}?${new URLSearchParams({ filter: next }).toString()}` : location);
  return [filter, setFilter];
}
