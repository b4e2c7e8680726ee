import { useId, type FormEvent } from "react";
import { CHANNELS, type Card, type CardControls } from "../api/types";
import { ErrorMessage } from "../components/error-message";
import { useWrite } from "../components/use-write";

const CATEGORIES = [
  "airlines", "flight-ticket", "car-rental", "hotels", "hospitality", "transport", "travel", "telecom", "utilities",
  "fuel-stations", "groceries", "restaurants", "digital-goods", "retail", "atm-cash", "financial-services", "gambling",
  "betting", "entertainment", "health-care", "education", "government",
]; // prettier-ignore

const EDITED_LIMITS = ["per-authorization", "daily"];

function limitOf(controls: CardControls, interval: string): number | undefined {
  return controls.spendingLimits?.find((limit) => limit?.interval === interval)?.amount;
}

/** The form's values as the card's controls; controls this form does not show are kept as they are. */
function controlsFrom(form: FormData, current: CardControls): CardControls {
  const limits = (current.spendingLimits ?? []).filter(
    (limit): limit is { amount: number; interval: string } => !!limit && !EDITED_LIMITS.includes(limit.interval),
  );
  for (const interval of EDITED_LIMITS) {
    const amount = Number(form.get(`limit-${interval}`) || 0);
    if (amount > 0) limits.push({ amount, interval });
  }
  return {
    ...current,
    blockedChannels: form.getAll("blockedChannels") as CardControls["blockedChannels"],
    blockedCategories: form.getAll("blockedCategories") as string[],
    spendingLimits: limits,
  };
}

function Checkboxes({
  legend,
  name,
  options,
  checked,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  checked: string[];
}) {
  return (
    <fieldset className="checkboxes">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option}>
          <input type="checkbox" name={name} value={option} defaultChecked={checked.includes(option)} />
          {option}
        </label>
      ))}
    </fieldset>
  );
}

/** The card's spending controls: blocked channels and categories, per-authorization and daily limits. */
export function CardControlsForm({ card, canWrite }: { card: Card; canWrite: boolean }) {
  const id = useId();
  const save = useWrite<CardControls>(
    (controls) => ({ method: "PUT", path: `/cards/${encodeURIComponent(card.id)}`, body: { controls } }),
    [["card", card.id]],
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(controlsFrom(new FormData(event.currentTarget), card.controls));
  };
  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${id}-heading`}
      key={card.controls === undefined ? "" : JSON.stringify(card.controls)}
    >
      <h2 id={`${id}-heading`}>Controls</h2>
      <fieldset disabled={!canWrite || save.isPending} className="plain">
        <Checkboxes
          legend="Blocked channels"
          name="blockedChannels"
          options={CHANNELS}
          checked={card.controls.blockedChannels ?? []}
        />
        <Checkboxes
          legend="Blocked categories"
          name="blockedCategories"
          options={CATEGORIES}
          checked={card.controls.blockedCategories ?? []}
        />
        {EDITED_LIMITS.map((interval) => (
          <p key={interval} className="field">
            <label htmlFor={`${id}-${interval}`}>
              {interval === "daily" ? "Daily limit" : "Per-authorization limit"} (minor units; empty for none)
            </label>
            <input
              id={`${id}-${interval}`}
              name={`limit-${interval}`}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              defaultValue={limitOf(card.controls, interval) ?? ""}
            />
          </p>
        ))}
        {canWrite && <button type="submit">Save controls</button>}
      </fieldset>
      {save.isSuccess && <p role="status">Controls saved.</p>}
      <ErrorMessage error={save.error} />
    </form>
  );
}
