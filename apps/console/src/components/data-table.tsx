import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned (amounts, counts). */
  numeric?: boolean;
}

/** A plain table with a caption for screen readers, or a line saying the list is empty. */
export function DataTable<T extends { id: string }>({
  caption,
  columns,
  rows,
  rowClass,
  empty = "Nothing here yet.",
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowClass?: (row: T) => string | undefined;
  empty?: string;
}) {
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.numeric ? "numeric" : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={rowClass?.(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.numeric ? "numeric" : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
