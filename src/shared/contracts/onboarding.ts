/** The first-run checklist an admin sees until every step is done. */
export interface OnboardingDto {
  numberConnected: boolean;
  queuesCreated: boolean;
  agentsInvited: boolean;
  sandboxTried: boolean;
}

export const ONBOARDING_STEPS = ["numberConnected", "queuesCreated", "agentsInvited", "sandboxTried"] as const;

/** True when nothing is left to do. */
export function onboardingDone(steps: OnboardingDto): boolean {
  return ONBOARDING_STEPS.every((step) => steps[step]);
}
