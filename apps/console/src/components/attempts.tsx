import type { Delivery } from "../api/types";
import { dateTime, excerpt, milliseconds } from "../format";
import { StatusBadge } from "./status-badge";

/** Each delivery of an event to a webhook, and each attempt: when, status, latency and the start of the answer. */
export function Deliveries({ deliveries, label }: { deliveries: Delivery[]; label: string }) {
  if (deliveries.length === 0) return <p className="empty">Not delivered to any webhook.</p>;
  return (
    <>
      {deliveries.map((delivery) => (
        <div key={delivery.webhook} className="delivery">
          <p>
            To webhook <code>{delivery.webhook}</code>: <StatusBadge status={delivery.status} />
            {delivery.nextAttemptAt && <> next attempt {dateTime(delivery.nextAttemptAt)}</>}
          </p>
          {delivery.attempts.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">
                  Delivery attempts of {label} to {delivery.webhook}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">Trigger</th>
                    <th scope="col">At</th>
                    <th scope="col">HTTP status</th>
                    <th scope="col" className="numeric">
                      Latency
                    </th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attempts.map((attempt) => (
                    <tr key={attempt.attempt}>
                      <td>{attempt.attempt}</td>
                      <td>{attempt.trigger}</td>
                      <td>{dateTime(attempt.at)}</td>
                      <td>{attempt.httpStatus ?? attempt.error ?? "—"}</td>
                      <td className="numeric">{milliseconds(attempt.latencyMs)}</td>
                      <td>
                        <code className="answer">{excerpt(attempt.response) || attempt.error || ""}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      ))}
    </>
  );
}
