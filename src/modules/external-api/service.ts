import type { MessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError } from "../../errors";
import { ticketForNumber } from "../tickets/ticket-for-number";
import { checkUpload, storeUpload } from "../media/service";
import type { TemplateMessage } from "../../shared/contracts/templates";
import { sendTicketMedia, sendTicketTextOrTemplate } from "../messages/send";
import { MAX_BODY } from "../messages/service";
import { defaultWhatsappId } from "../connections/default-connection";
import { connectionExists } from "../connections/lookup";
import { markTicketRead } from "../tickets/read-marking";
import { applyTicketChanges, getTicketRow } from "../tickets/service";

export interface ApiMessage {
  number: string;
  body?: string;
  whatsappId?: number;
  quotedMsgId?: number;
  closeTicket?: boolean;
  files?: File[];
  /** Sent instead of the text to a customer outside the Cloud API's 24-hour window. */
  template?: TemplateMessage;
}

export interface ApiSendResult {
  ticketId: number;
  /** The first message sent (the text, or the first file with the body as its caption). */
  messageId: number;
  messageIds: number[];
}

/** Every non-digit is dropped (`+55 (11) 99999-9999` → `5511999999999`); nothing left is ERR_INVALID_NUMBER. */
export function normaliseNumber(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  if (!digits) throw new AppError("ERR_INVALID_NUMBER");
  return digits;
}

async function connectionFor(deps: AppDeps, connectionId: number | undefined): Promise<number> {
  if (connectionId == null) return await defaultWhatsappId(deps.db, null);
  if (!(await connectionExists(deps.db, connectionId))) throw new AppError("ERR_NO_WAPP_FOUND");
  return connectionId;
}

/** The digits WhatsApp knows for the number, asked through the connection the message goes out on. */
async function checkOnWhatsapp(deps: AppDeps, connectionId: number, number: string): Promise<string> {
  if (!(await deps.channels.isRunning(connectionId))) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  let canonical: string | null;
  try {
    canonical = await deps.channels.checkNumber(connectionId, number);
  } catch {
    throw new AppError("ERR_WAPP_CHECK_CONTACT");
  }
  if (!canonical) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  return canonical;
}

/**
 * POST /api/messages/send: the number must be on WhatsApp; the contact and its ticket
 * are found or created like for an inbound message; the text, or each file (the body as the first caption), is
 * sent through the outbox; the ticket is marked read and, on `closeTicket`, closed without a farewell.
 */
export async function sendFromApi(deps: AppDeps, input: ApiMessage): Promise<ApiSendResult> {
  const body = input.body ?? "";
  if (body.length > MAX_BODY) throw new FieldError("body", "max");
  const files = input.files ?? [];
  if (!files.length && !body.trim()) throw new FieldError("body", "required");
  const number = normaliseNumber(input.number);
  const connectionId = await connectionFor(deps, input.whatsappId);
  const uploads = await Promise.all(files.map((file) => checkUpload(deps, file)));
  const canonical = await checkOnWhatsapp(deps, connectionId, number);

  const ticket = await ticketForNumber(deps, canonical, connectionId, "api");

  const sent: MessageRow[] = [];
  if (uploads.length) {
    for (const [i, upload] of uploads.entries()) {
      sent.push(
        await sendTicketMedia(
          deps,
          await getTicketRow(deps, ticket.id),
          await storeUpload(deps, upload),
          i === 0 ? body.trim() : "",
        ),
      );
    }
  } else {
    sent.push(
      await sendTicketTextOrTemplate(deps, await getTicketRow(deps, ticket.id), body, input.template, {
        quotedMessageId: input.quotedMsgId,
      }),
    );
  }
  await markTicketRead(deps, await getTicketRow(deps, ticket.id));
  if (input.closeTicket)
    await applyTicketChanges(deps, ticket.id, { status: "closed" }, { actor: null, farewell: false, cause: "api" });
  return { ticketId: ticket.id, messageId: sent[0]!.id, messageIds: sent.map((m) => m.id) };
}
