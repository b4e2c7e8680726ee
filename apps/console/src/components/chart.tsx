import { useEffect, useId, useRef } from "react";
import uPlot from "uplot";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

const HEIGHT = 180;

/**
 * A line chart of one or more series over time (uPlot, drawn on a canvas). The canvas is hidden from screen readers:
 * the figure's caption, its summary line (latest and highest values) and its legend carry the information as text.
 */
export function Chart({
  title,
  times,
  series,
  summary,
  unit,
}: {
  title: string;
  /** Seconds since the epoch, one per bucket. */
  times: number[];
  series: ChartSeries[];
  summary: string;
  unit?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, 1)] } },
      axes: [
        { stroke: "#374151", grid: { stroke: "#e5e7eb" } },
        {
          stroke: "#374151",
          grid: { stroke: "#e5e7eb" },
          size: 56,
          values: (_u, ticks) => ticks.map((tick) => `${+tick.toFixed(2)}${unit ?? ""}`),
        },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          spanGaps: false,
          points: { show: true, size: 4, fill: s.color },
        })),
      ],
    };
    const plot = new uPlot(options, [times, ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 240), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series, unit]);

  return (
    <figure className="chart" aria-describedby={`${id}-summary`}>
      <figcaption className="chart-title">{title}</figcaption>
      <p id={`${id}-summary`} className="chart-summary">
        {summary}
      </p>
      <div ref={container} aria-hidden="true" className="chart-canvas" />
      <ul className="legend">
        {series.map((s) => (
          <li key={s.label}>
            <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
