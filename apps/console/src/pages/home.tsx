import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { api, unwrap } from "../api/http";
import type { AuthorizationStats, DeliveryStats } from "../api/types";
import { Chart } from "../components/chart";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/page-title";
import { milliseconds, percent } from "../format";
import { statsView, type StatsView } from "../stats";

type Window = "hour" | "day";
const WINDOWS: { value: Window; label: string }[] = [
  { value: "hour", label: "Last hour" },
  { value: "day", label: "Last day" },
];

function WindowChoice({ value, onChange }: { value: Window; onChange: (window: Window) => void }) {
  const name = useId();
  return (
    <fieldset className="choice">
      <legend>Window</legend>
      {WINDOWS.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

function Headline({ view }: { view: StatsView }) {
  const { totals } = view;
  const figures = [
    ["Authorizations per minute", totals.perMinute.toFixed(2)],
    ["Approval rate", percent(totals.approvalRate)],
    ["Decision latency p50", milliseconds(totals.latencyP50)],
    ["Decision latency p99", milliseconds(totals.latencyP99)],
    ["Webhook failure rate", percent(totals.failureRate)],
  ];
  return (
    <dl className="figures">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function DeclinesByReason({ reasons }: { reasons: [string, number][] }) {
  const most = Math.max(1, ...reasons.map(([, n]) => n));
  return (
    <section aria-labelledby="declines-heading">
      <h2 id="declines-heading">Declines by reason</h2>
      {reasons.length === 0 ? (
        <p className="empty">No declines in this window.</p>
      ) : (
        <table className="bars">
          <caption className="visually-hidden">Declines by reason</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col" className="numeric">
                Declines
              </th>
              <th scope="col">
                <span className="visually-hidden">Share</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reasons.map(([reason, count]) => (
              <tr key={reason}>
                <td>{reason}</td>
                <td className="numeric">{count}</td>
                <td aria-hidden="true">
                  <span className="bar" style={{ width: `${(count / most) * 100}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const last = (values: (number | null)[]) => values.filter((v): v is number => v !== null).at(-1);
const describe = (values: (number | null)[], format: (n: number) => string) => {
  const numbers = values.filter((v): v is number => v !== null);
  if (numbers.length === 0) return "No data in this window";
  return `Latest ${format(last(values)!)}, highest ${format(Math.max(...numbers))}`;
};

function Charts({ view }: { view: StatsView }) {
  const series = useMemo(
    () => ({
      perMinute: [{ label: "Authorizations per minute", values: view.perMinute, color: "#1d4ed8" }],
      approval: [{ label: "Approval rate (%)", values: view.approvalRate, color: "#047857" }],
      latency: [
        { label: "p50 (ms)", values: view.latencyP50, color: "#1d4ed8" },
        { label: "p99 (ms)", values: view.latencyP99, color: "#b91c1c" },
      ],
      failures: [{ label: "Failed deliveries (%)", values: view.failureRate, color: "#b91c1c" }],
    }),
    [view],
  );
  const number = (n: number) => n.toFixed(2);
  return (
    <div className="charts">
      <Chart
        title="Authorizations per minute"
        times={view.times}
        series={series.perMinute}
        summary={describe(view.perMinute, number)}
      />
      <Chart
        title="Approval rate"
        unit="%"
        times={view.times}
        series={series.approval}
        summary={describe(view.approvalRate, (n) => `${n.toFixed(1)} %`)}
      />
      <Chart
        title="Decision latency"
        times={view.times}
        series={series.latency}
        summary={`p50: ${describe(view.latencyP50, milliseconds)}. p99: ${describe(view.latencyP99, milliseconds)}`}
      />
      <Chart
        title="Webhook failure rate"
        unit="%"
        times={view.deliveryTimes}
        series={series.failures}
        summary={describe(view.failureRate, (n) => `${n.toFixed(1)} %`)}
      />
    </div>
  );
}

/** The business at a glance: authorization volume, approvals, decision latency, declines and webhook failures. */
export function HomePage() {
  usePageTitle("Home");
  const [span, setSpan] = useState<Window>("hour");
  const auths = useQuery({
    queryKey: ["card-authorizations/stats", span],
    queryFn: async () => unwrap<AuthorizationStats>(await api("GET", `/card-authorizations/stats?window=${span}`)),
    refetchInterval: 30_000,
  });
  const deliveries = useQuery({
    queryKey: ["events/stats", span],
    queryFn: async () => unwrap<DeliveryStats>(await api("GET", `/events/stats?window=${span}`)),
    refetchInterval: 30_000,
  });
  const view = useMemo(
    () => (auths.data && deliveries.data ? statsView(auths.data, deliveries.data) : undefined),
    [auths.data, deliveries.data],
  );
  return (
    <>
      <h1>Home</h1>
      <WindowChoice value={span} onChange={setSpan} />
      <ErrorMessage error={auths.error ?? deliveries.error} />
      {!view ? (
        !auths.error && !deliveries.error && <p role="status">Loading…</p>
      ) : (
        <>
          <Headline view={view} />
          <Charts view={view} />
          <DeclinesByReason reasons={view.totals.declinesByReason} />
        </>
      )}
    </>
  );
}
