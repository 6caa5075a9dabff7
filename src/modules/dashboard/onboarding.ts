import type { Reader } from "../../db/client";
import type { OnboardingDto } from "../../shared/contracts/onboarding";
import { connectionProgress } from "../connections/lookup";
import { anyQueue } from "../queues/lookup";
import { anyAgent } from "../users/lookup";

/**
 * Where a new installation stands: the steps that make the inbox useful (GET /dashboard/onboarding, admins). The
 * sandbox step is offered only where the sandbox is on.
 */
export function onboardingFor(db: Reader, sandboxEnabled: boolean): OnboardingDto {
  const { numberConnected, sandboxTried } = connectionProgress(db);
  return {
    numberConnected,
    queuesCreated: anyQueue(db),
    agentsInvited: anyAgent(db),
    sandboxTried: sandboxEnabled ? sandboxTried : null,
  };
}
