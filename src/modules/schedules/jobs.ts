import type { AppDeps } from "../../deps";
import { pickDueSchedules, SCHEDULE_SEND_JOB, sendSchedule, settleWaitingSchedules } from "./dispatch";
import type { JobRunner } from "../../jobs/runner";
import { KeyedLanes } from "../../shared/lanes";

/** Per app, the schedules of messages heard as sent or failed are settled one after another. */
const settling = new KeyedLanes<AppDeps>();

/** Resolves once the schedules of every message heard as sent or failed so far are settled. */
export function schedulesSettled(deps: AppDeps): Promise<void> {
  return settling.settled(deps);
}

/**
 * Schedules: every few seconds due ones are picked (overdue ones too, after a stop) and each
 * is sent by its own job right away. A message that waited for its connection settles its schedule as soon as the
 * bus says it was sent or failed; the periodic pass catches what happened while the server was down.
 */
export async function scheduleSchedules(jobs: JobRunner, deps: AppDeps, everyMs = 5_000) {
  deps.events.subscribe((event) => {
    if (event.name !== "message.updated") return;
    const { id, sendState } = event.payload.message;
    if (sendState !== "sent" && sendState !== "failed") return;
    void settling.run(deps, () =>
      settleWaitingSchedules(deps, id).catch((error) =>
        deps.log.warn("schedule not settled", { messageId: id, error }),
      ),
    );
  });
  jobs.handle("schedule-monitor", async () => {
    await settleWaitingSchedules(deps);
    await pickDueSchedules(deps);
  });
  jobs.handle(SCHEDULE_SEND_JOB, async (payload: { scheduleId: number }) => {
    await sendSchedule(deps, payload.scheduleId);
  });
  await jobs.every("schedule-monitor", everyMs);
}
