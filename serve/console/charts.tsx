/**
 * Small inline SVG charts (no script, no stylesheet request): vertical bars for a series,
 * horizontal bars for categories, and a meter. Each chart is an image with a title and a
 * description naming what it shows; the page puts the numbers in a table beside it.
 */

/** One bar: its label, value and whether it counts failures (drawn red). */
export interface Bar {
  label: string;
  value: number;
  bad?: boolean;
}

/** A "nice" axis maximum at or above `max` (1, 2 or 5 times a power of ten). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** Vertical bars of a series (e.g. requests per day), with a y-axis maximum and end labels. */
export function ColumnChart(props: { id: string; title: string; desc: string; bars: Bar[] }) {
  const width = 640;
  const height = 200;
  const left = 44;
  const bottom = 24;
  const top = 10;
  const plotW = width - left - 8;
  const plotH = height - top - bottom;
  const max = niceMax(Math.max(0, ...props.bars.map((b) => b.value)));
  const step = plotW / Math.max(1, props.bars.length);
  const barW = Math.max(2, step * 0.7);
  const first = props.bars[0]?.label ?? "";
  const last = props.bars.at(-1)?.label ?? "";
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.desc}</desc>
      <line class="axis" x1={left} y1={top + plotH} x2={width - 8} y2={top + plotH} />
      <line class="axis" x1={left} y1={top} x2={left} y2={top + plotH} />
      <text x={left - 6} y={top + 4} text-anchor="end">{String(max)}</text>
      <text x={left - 6} y={top + plotH} text-anchor="end">0</text>
      {props.bars.map((bar, i) => {
        const h = (bar.value / max) * plotH;
        return (
          <rect
            class={bar.bad ? "bar bad" : "bar"}
            x={(left + i * step + (step - barW) / 2).toFixed(1)}
            y={(top + plotH - h).toFixed(1)}
            width={barW.toFixed(1)}
            height={h.toFixed(1)}
          />
        );
      })}
      <text x={left} y={height - 6}>{first}</text>
      <text x={width - 8} y={height - 6} text-anchor="end">{last}</text>
    </svg>
  );
}

/** Horizontal bars of categories (e.g. requests by route and status), labelled in place. */
export function BarList(props: { id: string; title: string; desc: string; bars: Bar[] }) {
  const width = 640;
  const row = 26;
  const labelW = 300;
  const height = Math.max(1, props.bars.length) * row + 8;
  const max = niceMax(Math.max(0, ...props.bars.map((b) => b.value)));
  const plotW = width - labelW - 60;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.desc}</desc>
      {props.bars.map((bar, i) => {
        const y = 4 + i * row;
        const w = Math.max(1, (bar.value / max) * plotW);
        return (
          <g>
            <text x={labelW - 8} y={y + 16} text-anchor="end">
              {bar.label.length > 46 ? `${bar.label.slice(0, 45)}…` : bar.label}
            </text>
            <rect
              class={bar.bad ? "bar bad" : "bar"}
              x={labelW}
              y={y + 4}
              width={w.toFixed(1)}
              height={row - 10}
            />
            <text x={(labelW + w + 6).toFixed(1)} y={y + 16}>{String(bar.value)}</text>
          </g>
        );
      })}
    </svg>
  );
}

/** A horizontal meter of `value` out of `max` (drawn red past 90%). */
export function Meter(props: { id: string; label: string; value: number; max: number }) {
  const share = props.max > 0 ? Math.min(1, props.value / props.max) : 0;
  const width = 300;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} 12`}
      role="img"
      aria-labelledby={`${props.id}-title`}
    >
      <title id={`${props.id}-title`}>{props.label}</title>
      <rect x="0" y="0" width={width} height="12" rx="6" fill="#e5e7eb" />
      <rect
        class={share > 0.9 ? "bar bad" : "bar"}
        x="0"
        y="0"
        width={(share * width).toFixed(1)}
        height="12"
        rx="6"
      />
    </svg>
  );
}
