import type { AppDeps } from "../../deps";
import { i18nFor } from "../../i18n/server";
import type { Lang } from "../../i18n/shared";
import { AppError } from "../../errors";
import { findConnection } from "../connections/lookup";
import { storeAutomaticNote } from "../messages/notes";
import { findTicket } from "../tickets/records";
import { summaryOf } from "./assist";
import { readAiConfig } from "./settings";

const SUMMARY_NOTE_JOB = "ai.summaryNote";
const LANE = "ai:summaries";

/**
 * When the admin switched it on, a transfer or a reopening gets a summary of the conversation as a private note.
 * The event only queues a job (in order, after the change was committed); the job asks the model, so neither
 * waits for the endpoint, and a failure is logged and leaves the ticket as it is.
 */
export function startAutoSummaries(deps: AppDeps) {
  deps.jobs.handle(
    SUMMARY_NOTE_JOB,
    async (payload: { ticketId: number }) => await addSummaryNote(deps, payload.ticketId),
  );
  deps.events.subscribe((event) => {
    if (event.name !== "ticket.event") return;
    const { kind, ticketId, id } = event.payload.event;
    if (kind !== "transferred" && kind !== "reopened") return;
    deps.lanes
      .run(LANE, () => queueSummary(deps, ticketId, id))
      .catch((error) => deps.log.warn("AI summary not queued", { ticketId, error }));
  });
}

/** Resolves once the summaries of the events heard so far are queued (or known not to be wanted). */
export const autoSummariesQueued = (deps: Pick<AppDeps, "lanes">) => deps.lanes.settled(LANE);

async function queueSummary(deps: AppDeps, ticketId: number, eventId: number) {
  const config = await readAiConfig(deps.db);
  if (!config.enabled || !config.autoSummary || !config.features.includes("summary")) return;
  await deps.jobs.enqueue(SUMMARY_NOTE_JOB, { ticketId }, { key: `ai-summary:${eventId}`, maxAttempts: 1 });
}

async function addSummaryNote(deps: AppDeps, ticketId: number) {
  const ticket = await findTicket(deps.db, ticketId);
  if (!ticket) return;
  const connection = ticket.whatsappId != null ? await findConnection(deps.db, ticket.whatsappId) : undefined;
  const language: Lang = connection?.language ?? "pt";
  try {
    const summary = await summaryOf(deps, ticket, language);
    await storeAutomaticNote(deps, ticket, i18nFor(language).t("chat.ai.summary"), summary);
  } catch (error) {
    deps.log.warn("AI summary note not added", { ticketId, error: error instanceof AppError ? error.code : error });
  }
}
