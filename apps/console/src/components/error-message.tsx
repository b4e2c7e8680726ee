import { ApiError } from "../api/http";

/** A failed request's message (and its field errors), announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const fields = error instanceof ApiError ? error.errors : [];
  return (
    <div role="alert" className="error">
      <p>{message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={`${field.path}:${field.message}`}>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
