import type { AppDeps } from "../../deps";
import { queueMissingSends, sendSchedule, settleWaitingSchedules, withdrawOrphans } from "./dispatch";
import { SCHEDULE_SEND_JOB } from "./send-job";

/** How many settled message states a node remembers (see startSchedules). */
const SETTLED_KEPT = 1000;

/** The key in `deps.lanes` of schedule settlements: one after another. */
const SETTLING = "schedules:settle";

/** Resolves once the schedules of every message heard as sent, failed or cancelled so far are settled. */
export function schedulesSettled(deps: AppDeps): Promise<void> {
  return deps.lanes.settled(SETTLING);
}

/**
 * Schedules: each one's send is a job due at its `sendAt` (overdue ones too, after a stop). A message that
 * waited for its connection settles its schedule as soon as this node hears it was sent or failed, and a
 * schedule whose waiting message was cancelled ends as soon as it is; the pass at start catches what happened
 * while the server was down, and gives a send job to schedules that came without one (imported).
 */
export async function startSchedules(deps: AppDeps) {
  deps.jobs.handle(SCHEDULE_SEND_JOB, async (payload: { scheduleId: number }) => {
    await sendSchedule(deps, payload.scheduleId);
  });
  const settled = new Set<string>();
  deps.events.subscribe((event) => {
    if (event.name === "message.deleted") return void settle(deps, () => withdrawOrphans(deps));
    if (event.name !== "message.updated") return;
    const { id, sendState } = event.payload.message;
    if (sendState !== "sent" && sendState !== "failed") return;
    // A message's schedule is linked before the message is handed to the network, so once its state is settled
    // here its later updates (the acks, still `sent`) have nothing left to settle.
    const key = `${id}:${sendState}`;
    if (settled.has(key)) return;
    void settle(deps, async () => {
      await settleWaitingSchedules(deps, id);
      settled.add(key);
      if (settled.size > SETTLED_KEPT) settled.delete(settled.values().next().value!);
    });
  });
  await queueMissingSends(deps);
  await settle(deps, () => settleWaitingSchedules(deps));
}

function settle(deps: AppDeps, work: () => Promise<void>) {
  return deps.lanes.run(SETTLING, () => work().catch((error) => deps.log.warn("schedules not settled", { error })));
}
