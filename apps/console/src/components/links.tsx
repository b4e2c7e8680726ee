import { Link } from "wouter";

/** A link to a record's page in the console, labelled with its id. */
export function RecordLink({ to, id }: { to: string; id: string }) {
  return (
    <Link href={`${to}/${encodeURIComponent(id)}`}>
      <code>{id}</code>
    </Link>
  );
}
