import type { AppDeps } from "../../deps";
import { activeKeys, cancel } from "../../jobs/store";
import type { Writer } from "../../db/client";

/** Each schedule's send is a job of its own, due at its `sendAt` (or when its next attempt is). */
export const SCHEDULE_SEND_JOB = "schedule-send";

const scheduleKey = (scheduleId: number) => `schedule:${scheduleId}`;

/** (Re)schedules the schedule's send job at `runAt` (epoch ms), replacing the one it had. */
export async function queueScheduleSend(deps: Pick<AppDeps, "jobs">, scheduleId: number, runAt: number) {
  await deps.jobs.enqueue(SCHEDULE_SEND_JOB, { scheduleId }, { key: scheduleKey(scheduleId), replace: true, runAt });
}

/** The schedule is gone: so is its send job (a run in progress finds no schedule and ends). */
export async function cancelScheduleSend(tx: Writer, scheduleId: number) {
  await cancel(tx, scheduleKey(scheduleId));
}

/** Those of the schedules whose send job is still to run, or running. */
export async function withSendToCome(tx: Writer, scheduleIds: number[]): Promise<Set<number>> {
  const keys = await activeKeys(tx, scheduleIds.map(scheduleKey));
  return new Set(scheduleIds.filter((id) => keys.has(scheduleKey(id))));
}
