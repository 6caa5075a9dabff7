import { inArray, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { connections, queues, users } from "../../db/tables";
import type { OnboardingDto } from "../../shared/contracts/onboarding";
import { WARNING_STATUSES } from "../../shared/contracts/connections";

/**
 * Where a new installation stands: the steps that make the inbox useful (GET /dashboard/onboarding, admins). The
 * sandbox step is offered only where the sandbox is on.
 */
export async function onboardingFor(db: Reader, sandboxEnabled: boolean): Promise<OnboardingDto> {
  return (await firstRunState(db, sandboxEnabled)).onboarding;
}

/**
 * The checklist and whether a connection needs an admin's attention (the app bar's warning), read together: an
 * admin's tickets page shows both.
 */
export async function firstRunState(
  db: Reader,
  sandboxEnabled: boolean,
): Promise<{ onboarding: OnboardingDto; connectionWarning: boolean }> {
  const steps = (await progress(db).get()) as Record<StepName | "connectionWarning", unknown> | undefined;
  return { onboarding: stepsDone(steps, sandboxEnabled), connectionWarning: Boolean(steps?.connectionWarning) };
}

function stepsDone(steps: Record<StepName, unknown> | undefined, sandboxEnabled: boolean): OnboardingDto {
  return {
    numberConnected: Boolean(steps?.numberConnected),
    queuesCreated: Boolean(steps?.queuesCreated),
    agentsInvited: Boolean(steps?.agentsInvited),
    sandboxTried: sandboxEnabled ? Boolean(steps?.sandboxTried) : null,
  };
}

type StepName = "numberConnected" | "queuesCreated" | "agentsInvited" | "sandboxTried";

/**
 * Each step's test and the connection warning, asked in one statement (on PostgreSQL each query is a round trip)
 * prepared once: an admin's every tickets page asks. A connected sandbox number counts: it is how the README's
 * walkthrough connects one without a phone. Built at the first question, as the tables are those of the engine
 * chosen at composition.
 */
const progress = prepared((db) => {
  const needsAttention = inArray(connections.status, [...WARNING_STATUSES]);
  return db
    .select({
      numberConnected: sql`exists (select 1 from ${connections} where ${connections.status} = 'CONNECTED')`,
      queuesCreated: sql`exists (select 1 from ${queues})`,
      agentsInvited: sql`exists (select 1 from ${users} where ${users.profile} = 'user')`,
      sandboxTried: sql`exists (select 1 from ${connections} where ${connections.provider} = 'sandbox')`,
      connectionWarning: sql`exists (select 1 from ${connections} where ${needsAttention})`,
    })
    .from(sql`(select 1) as one`)
    .prepare();
});
