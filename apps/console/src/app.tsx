import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Redirect, Route, Router, Switch, useLocation } from "wouter";
import { onUnauthorized } from "./api/http";
import { forgetSession, useSession } from "./api/session";
import { ErrorMessage } from "./components/error-message";
import { Layout } from "./components/layout";
import { ConsoleRoutes } from "./routes";
import { SignInPage } from "./pages/sign-in";

/** Signed out: the sign-in page only. Signed in: the console. A 401 from any request ends the session here too. */
function SessionGate() {
  const queryClient = useQueryClient();
  const session = useSession();
  const [notice, setNotice] = useState<string>();
  const [location, navigate] = useLocation();
  const here = useRef(location);
  here.current = location;
  /** After signing in: the page first opened, or the one open when the session ended; else Home. */
  const wanted = useRef(location === "/sign-in" ? "/" : location);
  useEffect(() => {
    onUnauthorized((message) => {
      wanted.current = here.current;
      setNotice(`Your session ended (${message}). Sign in again.`);
      forgetSession(queryClient);
    });
  }, [queryClient]);

  if (session.isPending) return <p role="status">Loading…</p>;
  if (session.isError) return <ErrorMessage error={session.error} />;
  if (!session.data) {
    const signedIn = () => {
      setNotice(undefined);
      navigate(wanted.current, { replace: true });
      wanted.current = "/";
    };
    return (
      <Switch>
        <Route path="/sign-in">
          <SignInPage notice={notice} onSignedIn={signedIn} />
        </Route>
        <Route>
          <Redirect to="/sign-in" replace />
        </Route>
      </Switch>
    );
  }
  return (
    <Switch>
      <Route path="/sign-in">
        <Redirect to="/" replace />
      </Route>
      <Route>
        <Layout session={session.data}>
          <ConsoleRoutes session={session.data} />
        </Layout>
      </Route>
    </Switch>
  );
}

export function App() {
  return (
    <Router base="/console">
      <SessionGate />
    </Router>
  );
}
