import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "uplot/dist/uPlot.min.css";
import { ApiError } from "./api/http";
import { App } from "./app";
import "./styles.css";

/** Client errors (4xx) are answers, not hiccups: only server errors and network failures are retried. */
const retryServerErrors = (failures: number, error: unknown) =>
  failures < 2 && !(error instanceof ApiError && error.status < 500);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: retryServerErrors, refetchOnWindowFocus: false, staleTime: 2_000 },
    mutations: { retry: false },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
