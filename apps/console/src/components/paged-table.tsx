import type { PagedList } from "../api/list";
import { DataTable, type Column } from "./data-table";
import { ErrorMessage } from "./error-message";
import { Pager } from "./pager";

/** A list endpoint's current page as a table, with its loading state, error and pager. */
export function PagedTable<T extends { id: string }>({
  list,
  caption,
  columns,
  rows,
  rowClass,
  empty,
}: {
  list: PagedList<T>;
  caption: string;
  columns: Column<T>[];
  /** What to show instead of the page's own rows (e.g. with live updates merged in). */
  rows?: T[];
  rowClass?: (row: T) => string | undefined;
  empty?: string;
}) {
  return (
    <>
      <ErrorMessage error={list.query.error} />
      {list.query.isPending ? (
        <p role="status">Loading…</p>
      ) : (
        <DataTable caption={caption} columns={columns} rows={rows ?? list.rows} rowClass={rowClass} empty={empty} />
      )}
      <Pager
        label={caption}
        pageNumber={list.pageNumber}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </>
  );
}
