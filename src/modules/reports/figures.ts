import type { ReportFigures } from "../../shared/contracts/reports";
import type { ReportedEvent } from "../tickets/report-events";

/**
 * The `p`-quantile (0–1) of `values` with linear interpolation between the closest ranks (PostgreSQL's
 * percentile_cont), or null for none. Sorts `values` in place.
 */
export function quantile(values: number[], p: number): number | null {
  if (!values.length) return null;
  values.sort((a, b) => a - b);
  const rank = (values.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return values[low]! + (values[high]! - values[low]!) * (rank - low);
}

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

/** Sums one agent's, one queue's or everyone's events and messages into their figures. */
export class FigureTally {
  private created = 0;
  private resolved = 0;
  private reopened = 0;
  private slaBreaches = 0;
  private messagesSent = 0;
  private readonly firstResponses: number[] = [];
  private readonly resolutions: number[] = [];
  private readonly ratings: number[] = [];

  add(event: ReportedEvent) {
    switch (event.kind) {
      case "created":
        this.created++;
        break;
      case "reopened":
        this.reopened++;
        break;
      case "sla_breached":
        this.slaBreaches++;
        break;
      case "resolved":
        this.resolved++;
        if (event.value !== null) this.resolutions.push(event.value);
        break;
      case "first_response":
        if (event.value !== null) this.firstResponses.push(event.value);
        break;
      case "rated":
        if (event.value !== null) this.ratings.push(event.value);
        break;
    }
  }

  addMessages(n: number) {
    this.messagesSent += n;
  }

  figures(): ReportFigures {
    const ratings = this.ratings;
    return {
      created: this.created,
      resolved: this.resolved,
      reopened: this.reopened,
      firstResponseMedianSeconds: seconds(quantile(this.firstResponses, 0.5)),
      firstResponseP90Seconds: seconds(quantile(this.firstResponses, 0.9)),
      resolutionMedianSeconds: seconds(quantile(this.resolutions, 0.5)),
      resolutionP90Seconds: seconds(quantile(this.resolutions, 0.9)),
      messagesSent: this.messagesSent,
      csatAverage: ratings.length
        ? Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100
        : null,
      csatCount: ratings.length,
      slaBreaches: this.slaBreaches,
    };
  }
}

/** The agent an event is credited to: the one who answered for a first response, else the ticket's agent after it. */
export function creditedUser(event: ReportedEvent): number | null {
  return event.kind === "first_response" ? event.actorUserId : event.toUserId;
}
