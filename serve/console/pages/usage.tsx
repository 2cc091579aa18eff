/** The usage page: 30 days by day, by route and status, the month against the quota, limits. */
import { type Frame, Layout, Notice } from "./layout.tsx";
import { type Bar, BarList, ColumnChart, Meter } from "../charts.tsx";
import { when } from "./keys.tsx";

/** Requests of one route, method and status over the period. */
export interface RouteCount {
  method: string;
  route: string;
  status: number;
  requests: number;
  avg_duration_ms: number;
}

/** What the usage page shows. */
export interface UsageView {
  days: { date: string; requests: number }[];
  byRoute: RouteCount[];
  total: number;
  month: { used: number; limit: number; resets_at: string } | null;
  minute: { used: number; limit: number } | null;
  concurrency: { in_use: number; limit: number } | null;
  contract: { plan: string; status: string; ends_at: string | null } | null;
}

const NUMBER = new Intl.NumberFormat("en-US");
const number = (n: number) => NUMBER.format(n);

/** The usage page. */
export function UsagePage(props: { frame: Frame; usage: UsageView }) {
  const u = props.usage;
  const dayBars: Bar[] = u.days.map((d) => ({ label: d.date, value: d.requests }));
  const routeBars: Bar[] = u.byRoute.map((r) => ({
    label: `${r.method} ${r.route.replace(/^\/api\/v1/, "")} → ${r.status}`,
    value: r.requests,
    bad: r.status >= 400,
  }));
  const busiest = u.days.reduce((best, d) => d.requests > best.requests ? d : best, {
    date: "",
    requests: 0,
  });
  return (
    <Layout frame={props.frame} title="Usage" section="usage">
      <h1>Usage</h1>
      <p class="lead">
        Runtime API calls of every key of this account, in UTC. New calls appear within a second.
      </p>
      {u.contract
        ? null
        : <Notice kind="warn">The account has no contract in force: API calls are refused.</Notice>}
      <div class="stats">
        <div class="stat">
          <p class="label">This month</p>
          <p class="value">
            {u.month ? `${number(u.month.used)} of ${number(u.month.limit)}` : "none"}
          </p>
          {u.month
            ? (
              <>
                <Meter
                  id="quota-meter"
                  label={`${number(u.month.used)} of ${
                    number(u.month.limit)
                  } monthly requests used`}
                  value={u.month.used}
                  max={u.month.limit}
                />
                <p class="muted">{`Quota resets ${when(u.month.resets_at)}`}</p>
              </>
            )
            : null}
        </div>
        <div class="stat">
          <p class="label">Rate limit</p>
          <p class="value">{u.minute ? `${number(u.minute.limit)} / minute` : "none"}</p>
          {u.minute ? <p class="muted">{`${number(u.minute.used)} used this minute`}</p> : null}
        </div>
        <div class="stat">
          <p class="label">Concurrent requests</p>
          <p class="value">{u.concurrency ? `${u.concurrency.limit} at once` : "none"}</p>
          {u.concurrency ? <p class="muted">{`${u.concurrency.in_use} in flight now`}</p> : null}
        </div>
        <div class="stat">
          <p class="label">Plan</p>
          <p class="value">{u.contract ? u.contract.plan : "none"}</p>
          {u.contract
            ? (
              <p class="muted">
                {`${u.contract.status}${
                  u.contract.ends_at ? `, until ${u.contract.ends_at.slice(0, 10)}` : ""
                }`}
              </p>
            )
            : null}
        </div>
      </div>

      <section class="card" aria-labelledby="days-heading">
        <h2 id="days-heading">{`Last 30 days: ${number(u.total)} requests`}</h2>
        <ColumnChart
          id="days-chart"
          title="Requests per day, last 30 days"
          desc={u.total === 0
            ? "No requests in the last 30 days."
            : `${number(u.total)} requests in total; the busiest day was ${busiest.date} with ${
              number(busiest.requests)
            }. The table below lists every day with requests.`}
          bars={dayBars}
        />
        {u.total === 0
          ? (
            <p class="muted">
              No calls yet. Create a key and <a href="/console/try">try the API</a>.
            </p>
          )
          : (
            <div class="scroll">
              <table>
                <caption>Requests per day (days with requests)</caption>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col" class="num">Requests</th>
                  </tr>
                </thead>
                <tbody>
                  {u.days.filter((d) => d.requests > 0).reverse().map((d) => (
                    <tr>
                      <th scope="row">{d.date}</th>
                      <td class="num">{number(d.requests)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>

      <section class="card" aria-labelledby="routes-heading">
        <h2 id="routes-heading">By route and status, last 30 days</h2>
        {u.byRoute.length === 0 ? <p class="muted">No requests yet.</p> : (
          <>
            <BarList
              id="routes-chart"
              title="Requests by route and status, last 30 days"
              desc="One bar per route and response status; failed statuses (4xx, 5xx) are red. The table below has the same numbers."
              bars={routeBars}
            />
            <div class="scroll">
              <table>
                <caption>Requests by route and status</caption>
                <thead>
                  <tr>
                    <th scope="col">Route</th>
                    <th scope="col">Method</th>
                    <th scope="col" class="num">Status</th>
                    <th scope="col" class="num">Requests</th>
                    <th scope="col" class="num">Average ms</th>
                  </tr>
                </thead>
                <tbody>
                  {u.byRoute.map((r) => (
                    <tr>
                      <th scope="row" class="mono">{r.route}</th>
                      <td>{r.method}</td>
                      <td class="num">{String(r.status)}</td>
                      <td class="num">{number(r.requests)}</td>
                      <td class="num">{r.avg_duration_ms.toFixed(1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </Layout>
  );
}
