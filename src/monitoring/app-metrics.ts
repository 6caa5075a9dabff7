import { version } from "../../package.json";
import type { Db } from "../db/client";
import { countJobs } from "../jobs/store";
import { countConnectionsByStatus } from "../modules/connections/service";
import type { DomainEvent } from "../events/catalogue";
import type { Config } from "../config";
import { offsiteStatus } from "../ops/backup-uploads";
import { MetricsRegistry } from "./metrics";

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10] as const;

/** What Zapdesk reports at /metrics, and the hooks that feed it. */
export function createAppMetrics(db: Db, config: Pick<Config, "backupS3" | "backupKeep"> = { backupKeep: 0 }) {
  const registry = new MetricsRegistry();
  const started = Date.now();
  let sockets = () => 0;

  registry.gauge("zapdesk_build_info", "The running version.", () => [{ labels: { version }, value: 1 }]);
  registry.gauge("zapdesk_connections", "WhatsApp connections by status.", async () =>
    (await countConnectionsByStatus(db)).map((c) => ({ labels: { status: c.status }, value: c.count })),
  );
  const messages = registry.counter(
    "zapdesk_messages_total",
    "Messages stored since start: in from contacts, out from agents, bots or the phone.",
  );
  registry.gauge("zapdesk_jobs", "Timed jobs (auto-close, backups…) by status.", async () =>
    (await countJobs(db)).map((j) => ({ labels: { status: j.status }, value: j.count })),
  );
  const uploadFailures = registry.counter(
    "zapdesk_backup_upload_failures_total",
    "Failed attempts to upload a backup to BACKUP_S3_URL since start.",
  );
  if (config.backupS3) uploadFailures.inc({}, 0);
  registry.gauge(
    "zapdesk_backup_last_upload_timestamp_seconds",
    "When the newest backup uploaded to BACKUP_S3_URL went up (Unix time).",
    async () => {
      const last = (await offsiteStatus(db, config)).lastUpload;
      return last ? [{ value: Math.floor(Date.parse(last.at) / 1000) }] : [];
    },
  );
  registry.gauge(
    "zapdesk_backup_uploads_failing",
    "Backups newer than the last uploaded whose upload failed: to be tried again, or given up on.",
    async () => {
      if (!config.backupS3) return [];
      const failures = (await offsiteStatus(db, config)).failures;
      return (["retrying", "failed"] as const).map((state) => ({
        labels: { state },
        value: failures.filter((f) => f.state === state).length,
      }));
    },
  );
  registry.gauge("zapdesk_websocket_clients", "Open browser sockets.", () => [{ value: sockets() }]);
  const requests = registry.histogram(
    "zapdesk_http_request_duration_seconds",
    "HTTP request durations by method and status class.",
    LATENCY_BUCKETS,
  );
  registry.gauge("process_resident_memory_bytes", "Resident memory of the server process.", () => [
    { value: process.memoryUsage().rss },
  ]);
  registry.gauge("process_heap_bytes", "JavaScript heap in use.", () => [{ value: process.memoryUsage().heapUsed }]);
  registry.gauge("process_uptime_seconds", "Seconds since the server started.", () => [
    { value: Math.round((Date.now() - started) / 1000) },
  ]);

  return {
    text: () => registry.text(),
    /** Fed from the event bus: every stored message is announced as `message.created` (private notes are not traffic). */
    observeEvent(event: DomainEvent) {
      if (event.name === "message.created" && !event.payload.message.isPrivate)
        messages.inc({ direction: event.payload.message.fromMe ? "out" : "in" });
    },
    observeBackupUpload(ok: boolean) {
      if (!ok) uploadFailures.inc();
    },
    observeRequest(method: string, status: number, seconds: number) {
      requests.observe(seconds, { method, status: `${Math.floor(status / 100)}xx` });
    },
    /** Where the open-socket count comes from once the server listens. */
    countSocketsWith(read: () => number) {
      sockets = read;
    },
  };
}

export type AppMetrics = ReturnType<typeof createAppMetrics>;
