import { Route, Switch } from "wouter";
import type { Session } from "./api/types";
import { usePageTitle } from "./components/page-title";
import { AccountPage, AccountsPage } from "./pages/accounts";
import { AuthorizationPage } from "./pages/authorization";
import { AuthorizationsPage } from "./pages/authorizations";
import { CardPage, CardsPage } from "./pages/cards";
import { CustomerPage, CustomersPage } from "./pages/customers";
import { DevelopersPage } from "./pages/developers";
import { EventPage, EventsPage } from "./pages/events";
import { HomePage } from "./pages/home";
import { SimulatePage } from "./pages/simulate";
import { WebhooksPage } from "./pages/webhooks";

function NotFound() {
  usePageTitle("Not found");
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such page in the console.</p>
    </>
  );
}

/** The signed-in pages, under /console. */
export function ConsoleRoutes({ session }: { session: Session }) {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/authorizations" component={AuthorizationsPage} />
      <Route path="/authorizations/:id">{(params) => <AuthorizationPage id={params.id} />}</Route>
      <Route path="/customers" component={CustomersPage} />
      <Route path="/customers/:id">{(params) => <CustomerPage id={params.id} />}</Route>
      <Route path="/cards" component={CardsPage} />
      <Route path="/cards/:id">{(params) => <CardPage id={params.id} session={session} />}</Route>
      <Route path="/accounts" component={AccountsPage} />
      <Route path="/accounts/:id">{(params) => <AccountPage id={params.id} />}</Route>
      <Route path="/events" component={EventsPage} />
      <Route path="/events/:id">{(params) => <EventPage id={params.id} session={session} />}</Route>
      <Route path="/webhooks">
        <WebhooksPage session={session} />
      </Route>
      <Route path="/developers">
        <DevelopersPage session={session} />
      </Route>
      <Route path="/simulate">
        <SimulatePage session={session} />
      </Route>
      <Route component={NotFound} />
    </Switch>
  );
}
