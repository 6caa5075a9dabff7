import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { summaryCsv } from "./csv";
import { ReportModel } from "./model";
import { reportSummary } from "./service";

/**
 * GET /reports/summary: figures per agent and queue, per day and per weekday × hour over a span (admins see every
 * agent, others themselves). GET /reports/summary.csv: the same agents and queues tables as CSV.
 */
export function reportsRoutes(deps: AppDeps, tokens: Tokens) {
  const summary = (user: Parameters<typeof reportSummary>[1], query: ReportModel.Summary) =>
    reportSummary(deps.db, user, query, deps.clock.now(), deps.config.timeZone);
  // An empty `queueIds=` or `userIds=` means no filter, as on the ticket list.
  const transform = ({ query }: { query: unknown }) => {
    const raw = query as Record<string, unknown>;
    for (const key of ["queueIds", "userIds", "from", "to"]) if (raw[key] === "") delete raw[key];
  };
  return new Elysia({ prefix: "/reports" })
    .use(authContext(deps, tokens))
    .get("/summary", async ({ user, query }) => await summary(user, query), {
      auth: true,
      transform,
      query: ReportModel.summary,
    })
    .get(
      "/summary.csv",
      async ({ user, query }) =>
        new Response(summaryCsv(await summary(user, query)), {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": 'attachment; filename="report.csv"',
            "cache-control": "no-store",
          },
        }),
      { auth: true, transform, query: ReportModel.summary },
    );
}
