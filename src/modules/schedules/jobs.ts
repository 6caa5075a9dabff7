import type { AppDeps } from "../../deps";
import { pickDueSchedules, SCHEDULE_SEND_JOB, sendSchedule, settleWaitingSchedules } from "./dispatch";
import type { JobRunner } from "../../jobs/runner";

/**
 * Schedules: every few seconds due ones are picked (overdue ones too, after a stop) and each
 * is sent by its own job right away; messages that waited for their connection are followed until sent or failed.
 */
export function scheduleSchedules(jobs: JobRunner, deps: AppDeps, everyMs = 5_000) {
  jobs.handle("schedule-monitor", async () => {
    settleWaitingSchedules(deps);
    pickDueSchedules(deps);
  });
  jobs.handle(SCHEDULE_SEND_JOB, async (payload: { scheduleId: number }) => {
    await sendSchedule(deps, payload.scheduleId);
  });
  jobs.every("schedule-monitor", everyMs);
}
