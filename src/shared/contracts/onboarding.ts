/** The first-run checklist an admin sees until every step is done. */
export interface OnboardingDto {
  numberConnected: boolean;
  queuesCreated: boolean;
  agentsInvited: boolean;
  /** null when the sandbox is off on this server: the step is not offered. */
  sandboxTried: boolean | null;
}

export const ONBOARDING_STEPS = ["numberConnected", "queuesCreated", "agentsInvited", "sandboxTried"] as const;

/** True when nothing is left to do. */
export function onboardingDone(steps: OnboardingDto): boolean {
  return ONBOARDING_STEPS.every((step) => steps[step] !== false);
}
