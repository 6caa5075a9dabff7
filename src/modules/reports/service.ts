import type { Db } from "../../db/client";
import { FieldError, forbidden } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import type {
  AgentReportLine,
  QueueReportLine,
  ReportDay,
  ReportQuery,
  ReportSummaryDto,
} from "../../shared/contracts/reports";
import { isAdmin } from "../../shared/permissions";
import { agentMessageCounts } from "../messages/report-counts";
import { listQueues } from "../queues/service";
import { type ReportedEvent, reportedEvents } from "../tickets/report-events";
import { teamAvailability } from "../users/lookup";
import { creditedUser, FigureTally, quantile } from "./figures";
import { dayIndexOf, type ReportSpan, reportSpan } from "./range";

const HOUR_MS = 3600_000;

/**
 * The report over a span: figures per agent, per queue and in total, created/resolved and the median first
 * response per local day, and tickets created per weekday × hour. Admins see every agent; anyone else only
 * themselves (asking for another agent → 403). Two reads: the span's events and the agents' message counts.
 */
export async function reportSummary(
  db: Db,
  viewer: AuthUser,
  query: ReportQuery,
  now: number,
  timeZone: string,
): Promise<ReportSummaryDto> {
  const span = reportSpan(query.from, query.to, now, timeZone);
  const userIds = agentsAllowed(viewer, query.userIds);
  const [team, queues] = await Promise.all([teamAvailability(db), listQueues(db)]);
  const unknownUser = userIds?.find((id) => !team.some((u) => u.id === id));
  if (unknownUser !== undefined) throw new FieldError("userIds", "invalid");
  if (query.queueIds?.some((id) => !queues.some((q) => q.id === id))) throw new FieldError("queueIds", "invalid");
  const filter = { start: span.start, end: span.end, queueIds: query.queueIds, userIds };
  const [events, messageCounts] = await Promise.all([reportedEvents(db, filter), agentMessageCounts(db, filter)]);

  const wanted = userIds ? new Set(userIds) : undefined;
  const totals = new FigureTally();
  const perAgent = new Map<number, FigureTally>();
  const perQueue = new Map<number, FigureTally>();
  const tally = <K>(map: Map<K, FigureTally>, key: K) => {
    let found = map.get(key);
    if (!found) map.set(key, (found = new FigureTally()));
    return found;
  };
  const charts = new Charts(span);
  for (const read of events) {
    if (read.kind === "handed") {
      creditFirstAgent(read);
      continue;
    }
    // A ticket created without a queue counts as created in the queue it is moved into from none: in that
    // queue's line, and everywhere once queues are filtered (its creation, in no queue, was filtered out).
    const event = read.kind === "queued" ? { ...read, kind: "created" as const } : read;
    const userId = creditedUser(event);
    if (wanted && (userId === null || !wanted.has(userId))) continue;
    if (read.kind === "queued" && !query.queueIds) {
      tally(perQueue, event.toQueueId!).add(event);
      continue;
    }
    totals.add(event);
    if (userId !== null) tally(perAgent, userId).add(event);
    if (event.toQueueId !== null) tally(perQueue, event.toQueueId).add(event);
    charts.add(event);
  }
  /**
   * A ticket created without an agent counts, per agent, as created by the first agent it was given. Filtered to
   * queues, one moved into the queue from none already counts as created there, with its agent. Filtered to agents,
   * the creation (no one's) was left out: the totals count it with its agent's line.
   */
  function creditFirstAgent(read: ReportedEvent) {
    if (read.toUserId === null || (query.queueIds && read.alsoQueued)) return;
    if (wanted && !wanted.has(read.toUserId)) return;
    const event = { ...read, kind: "created" as const };
    tally(perAgent, read.toUserId).add(event);
    if (!wanted) return;
    totals.add(event);
    charts.add(event);
  }
  for (const { userId, queueId, n } of messageCounts) {
    totals.addMessages(n);
    tally(perAgent, userId).addMessages(n);
    if (queueId !== null) tally(perQueue, queueId).addMessages(n);
  }

  const agents: AgentReportLine[] = team
    .filter((u) => (wanted ? wanted.has(u.id) : true))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map((u) => ({ userId: u.id, name: u.name, ...tally(perAgent, u.id).figures() }));
  const queueLines: QueueReportLine[] = queues
    .filter((q) => (query.queueIds ? query.queueIds.includes(q.id) : true))
    .map((q) => ({ queueId: q.id, name: q.name, ...tally(perQueue, q.id).figures() }));
  return {
    from: new Date(span.start).toISOString(),
    to: new Date(span.end).toISOString(),
    timeZone,
    totals: totals.figures(),
    agents,
    queues: queueLines,
    days: charts.days(),
    heatmap: charts.heatmap,
  };
}

/** The agents the viewer may count: admins any (all when none named), others only themselves. */
function agentsAllowed(viewer: AuthUser, asked: number[] | undefined): number[] | undefined {
  if (isAdmin(viewer.profile)) return asked?.length ? [...new Set(asked)] : undefined;
  if (asked?.some((id) => id !== viewer.id)) throw forbidden();
  return [viewer.id];
}

/** The per-day series and the weekday × hour grid of tickets created, in the installation's local time. */
class Charts {
  readonly heatmap = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  private readonly created: number[];
  private readonly resolved: number[];
  private readonly firstResponses: number[][];

  constructor(private readonly span: ReportSpan) {
    this.created = span.days.map(() => 0);
    this.resolved = span.days.map(() => 0);
    this.firstResponses = span.days.map(() => []);
  }

  add(event: { kind: string; at: number; value: number | null }) {
    const i = dayIndexOf(this.span.days, event.at);
    if (i < 0) return;
    if (event.kind === "created") {
      this.created[i]!++;
      const day = this.span.days[i]!;
      // Hours from local midnight: a day that changes its clock has 23 or 25 of them.
      const hour = Math.min(23, Math.floor((event.at - day.start) / HOUR_MS));
      this.heatmap[day.weekday]![hour]!++;
    } else if (event.kind === "resolved") this.resolved[i]!++;
    else if (event.kind === "first_response" && event.value !== null) this.firstResponses[i]!.push(event.value);
  }

  days(): ReportDay[] {
    return this.span.days.map((day, i) => {
      const median = quantile(this.firstResponses[i]!, 0.5);
      return {
        date: day.date,
        created: this.created[i]!,
        resolved: this.resolved[i]!,
        firstResponseMedianSeconds: median === null ? null : Math.round(median / 1000),
      };
    });
  }
}
