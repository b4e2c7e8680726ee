import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { signIn } from "../api/session";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/page-title";

/**
 * The secret key is read from the form when it is submitted, sent once to POST /console/api/session, and the field
 * is cleared: it is never held in React state, storage or the URL. The session lives in an HttpOnly cookie.
 */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: () => void }) {
  usePageTitle("Sign in");
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const key = String(new FormData(form).get("key") ?? "").trim();
    form.reset();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(queryClient, key);
      onSignedIn();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to the Cardhold console</h1>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form onSubmit={submit} method="post" action="#">
        <label htmlFor="secret-key">Secret key</label>
        <input
          id="secret-key"
          name="key"
          type="password"
          required
          autoComplete="off"
          spellCheck={false}
          aria-describedby="secret-key-help"
        />
        <p id="secret-key-help" className="hint">
          A test (<code>sk.test.…</code>) or live (<code>sk.live.…</code>) secret key. It is exchanged for a session
          cookie and not kept by this page.
        </p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}
