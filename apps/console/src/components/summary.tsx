import type { ReactNode } from "react";

/** A record's fields as a description list. */
export function Summary({ fields }: { fields: [string, ReactNode][] }) {
  return (
    <dl className="summary">
      {fields.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
