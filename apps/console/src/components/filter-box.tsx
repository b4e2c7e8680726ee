import { useId, type FormEvent } from "react";

/** A filter in the list query language (e.g. `status:declined amount>5000`), applied on submit. */
export function FilterBox({
  value,
  onApply,
  example,
}: {
  value: string;
  onApply: (filter: string) => void;
  example: string;
}) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(String(new FormData(event.currentTarget).get("filter") ?? "").trim());
  };
  return (
    <form className="filter" role="search" onSubmit={submit}>
      <label htmlFor={`${id}-filter`}>Filter</label>
      <input
        id={`${id}-filter`}
        name="filter"
        type="search"
        defaultValue={value}
        key={value}
        spellCheck={false}
        autoComplete="off"
        aria-describedby={`${id}-help`}
      />
      <button type="submit">Apply filter</button>
      <p id={`${id}-help`} className="hint">
        Query language, e.g. <code>{example}</code>
      </p>
    </form>
  );
}
