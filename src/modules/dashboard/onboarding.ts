import type { Reader } from "../../db/client";
import type { OnboardingDto } from "../../shared/contracts/onboarding";
import { connectionProgress } from "../connections/lookup";
import { anyQueue } from "../queues/lookup";
import { anyAgent } from "../users/lookup";

/**
 * Where a new installation stands: the steps that make the inbox useful (GET /dashboard/onboarding, admins). The
 * sandbox step is offered only where the sandbox is on.
 */
export async function onboardingFor(db: Reader, sandboxEnabled: boolean): Promise<OnboardingDto> {
  const [{ numberConnected, sandboxTried }, queuesCreated, agentsInvited] = await Promise.all([
    connectionProgress(db),
    anyQueue(db),
    anyAgent(db),
  ]);
  return { numberConnected, queuesCreated, agentsInvited, sandboxTried: sandboxEnabled ? sandboxTried : null };
}
