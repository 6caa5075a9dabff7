import { useEffect, useRef, useState } from "react";
import { ONBOARDING_STEPS, type OnboardingDto, onboardingDone } from "../../src/shared/contracts/onboarding";
import { api } from "./api";
import { useT } from "./i18n-context";
import { useLive } from "./live";

const HIDDEN_KEY = "zapdesk.onboarding.hidden";
const REFRESH_DEBOUNCE_MS = 500;

/** Where each step is done. */
const STEP_LINKS: Record<(typeof ONBOARDING_STEPS)[number], string> = {
  numberConnected: "/connections",
  queuesCreated: "/Queues",
  agentsInvited: "/users",
  sandboxTried: "/sandbox",
};

/**
 * The first-run checklist for admins: connect a number, create queues, invite agents, try the sandbox. Each step
 * ticks itself as the admin does it (the lists it depends on are live); the card goes once every step is done,
 * or when the admin hides it.
 */
export function Onboarding({ initial }: { initial: OnboardingDto }) {
  const t = useT();
  const [steps, setSteps] = useState(initial);
  const [hidden, setHidden] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    setHidden(localStorage.getItem(HIDDEN_KEY) === "1");
    return () => clearTimeout(timer.current);
  }, []);
  useLive(["whatsapp", "whatsappSession", "queue", "user"], () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      api<OnboardingDto>("/dashboard/onboarding").then(setSteps, () => {});
    }, REFRESH_DEBOUNCE_MS);
  });

  if (hidden || onboardingDone(steps)) return null;
  const hide = () => {
    localStorage.setItem(HIDDEN_KEY, "1");
    setHidden(true);
  };
  return (
    <section className="onboarding" aria-labelledby="onboarding-title">
      <header className="onboarding-header">
        <h2 id="onboarding-title">{t("onboarding.title")}</h2>
        <button type="button" className="button" onClick={hide}>
          {t("onboarding.hide")}
        </button>
      </header>
      <p className="onboarding-intro">{t("onboarding.intro")}</p>
      <ol className="onboarding-steps">
        {ONBOARDING_STEPS.filter((step) => steps[step] !== null).map((step) => (
          <li key={step} className={steps[step] ? "done" : undefined}>
            <span className="onboarding-check" aria-hidden="true">
              {steps[step] ? "✓" : ""}
            </span>
            <a href={STEP_LINKS[step]}>{t(`onboarding.steps.${step}`)}</a>
            <span className="sr-only">{steps[step] ? t("onboarding.done") : t("onboarding.pending")}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
