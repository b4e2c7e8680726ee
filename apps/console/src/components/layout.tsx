import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { signOut } from "../api/session";
import type { Session } from "../api/types";
import { ModeBanner } from "./mode-banner";

const PAGES = [
  { href: "/", label: "Home" },
  { href: "/authorizations", label: "Authorizations" },
  { href: "/customers", label: "Customers" },
  { href: "/cards", label: "Cards" },
  { href: "/accounts", label: "Accounts" },
  { href: "/events", label: "Events" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/developers", label: "Developers" },
  { href: "/simulate", label: "Simulate", testOnly: true },
];

function isCurrent(href: string, location: string): boolean {
  return href === "/" ? location === "/" : location === href || location.startsWith(`${href}/`);
}

/** The frame of every signed-in page: the mode banner, the business, navigation and sign-out. */
/** After a move to another page, focus goes to its content, so a screen reader starts reading the new page. */
function useFocusOnNavigation(location: string) {
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    document.getElementById("main")?.focus();
  }, [location]);
}

export function Layout({ session, children }: { session: Session; children: ReactNode }) {
  const [location, navigate] = useLocation();
  useFocusOnNavigation(location);
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const leave = async () => {
    setSigningOut(true);
    await signOut(queryClient).catch(() => undefined);
    navigate("/sign-in");
  };
  return (
    <div className={`app app-${session.mode}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ModeBanner mode={session.mode} />
      <header className="top">
        <span className="brand">Cardhold console</span>
        <span className="business">
          {session.business.name} <code>{session.business.id}</code>
        </span>
        <button type="button" onClick={leave} disabled={signingOut}>
          Sign out
        </button>
      </header>
      <div className="frame">
        <nav aria-label="Console" className="side">
          <ul>
            {PAGES.filter((page) => !page.testOnly || session.mode === "test").map((page) => (
              <li key={page.href}>
                <Link href={page.href} aria-current={isCurrent(page.href, location) ? "page" : undefined}>
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
