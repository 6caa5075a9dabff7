import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import type { Config } from "../../config";
import { bodyLimitFor } from "../../http/body-limits";
import { parseJson, readCapped } from "../../http/body-reader";
import { idParam } from "../../http/fields";
import type { OutgoingMessage } from "../../shared/contracts/messages";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { forwardMessage } from "./forward";
import { MessageModel } from "./model";
import { reactToMessage } from "./react";
import { presentationFor, presentMessages } from "./present";
import {
  deleteMessage,
  listMessages,
  MAX_BODY,
  type PanelMessage,
  retryMessage,
  searchMessages,
  sendFromPanel,
  sendTemplateFromPanel,
} from "./service";

const MAX_FILES = 10;

/**
 * Reads POST /messages/:ticketId as JSON (OutgoingMessage) or multipart (`medias` files, `body`). Read by hand
 * rather than through a body schema (`t.Files`) because Elysia buffers and parses the whole body first: this stops
 * reading at the route's byte limit, and one route takes either form.
 */
async function readPanelMessage(request: Request, config: Config): Promise<PanelMessage> {
  const type = request.headers.get("content-type") ?? "";
  const limit = bodyLimitFor(
    config,
    request.method,
    new URL(request.url).pathname,
    type.split(";")[0]!.trim().toLowerCase(),
  );
  const bytes = await readCapped(request, limit.bytes);
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(bytes, { headers: { "content-type": type } }).formData().catch(() => {
      throw new AppError("ERR_INVALID_BODY");
    });
    const files = form.getAll("medias").filter((v): v is File => typeof v !== "string");
    if (files.length > MAX_FILES) throw new AppError("ERR_INVALID_BODY");
    const body = form.get("body");
    return { body: typeof body === "string" ? body : undefined, files };
  }
  const text = new TextDecoder().decode(bytes);
  if (text.length > MAX_BODY * 2) throw new AppError("ERR_INVALID_BODY");
  const json = parseJson(text || "{}");
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new AppError("ERR_INVALID_BODY");
  // Its fields named by the contract, their values not checked yet.
  const { body, quotedMsg, isPrivate } = json as { [K in keyof OutgoingMessage]?: unknown };
  if (body != null && typeof body !== "string") throw new AppError("ERR_INVALID_BODY");
  if (isPrivate != null && typeof isPrivate !== "boolean") throw new AppError("ERR_INVALID_BODY");
  const quotedId = quotedMsg && typeof quotedMsg === "object" ? (quotedMsg as { id?: unknown }).id : undefined;
  if (quotedId != null && !(Number.isSafeInteger(quotedId) && (quotedId as number) > 0))
    throw new AppError("ERR_INVALID_BODY");
  return {
    body: body ?? undefined,
    quotedMsgId: (quotedId as number | undefined) ?? undefined,
    isPrivate: isPrivate === true,
  };
}

/**
 * /messages: a ticket's history, sending text or files from the panel (or writing a private note), retrying a
 * failed send, forwarding a message to other contacts, reacting to a customer's message, deleting own messages.
 */
export function messageRoutes(deps: AppDeps, tokens: Tokens) {
  return (
    new Elysia({ prefix: "/messages" })
      .use(authContext(deps, tokens))
      .get(
        "/:ticketId",
        async ({ user, params, query, request, server }) => {
          const page = await listMessages(deps, user, params.ticketId, query.pageNumber);
          return { ...page, messages: presentMessages(deps, page.messages, presentationFor(deps, request, server)) };
        },
        {
          auth: true,
          params: MessageModel.listParams,
          query: MessageModel.listQuery,
        },
      )
      .get(
        "/:ticketId/search",
        async ({ user, params, query }) => await searchMessages(deps, user, params.ticketId, query.q),
        {
          auth: true,
          params: MessageModel.listParams,
          query: MessageModel.searchQuery,
        },
      )
      // POST routes share one parameter name per position: `id` is the ticket's here and the message's on retry.
      .post(
        "/:id",
        async ({ user, params, request, server }) => {
          const messages = await sendFromPanel(deps, user, params.id, await readPanelMessage(request, deps.config));
          return { ok: true, messages: presentMessages(deps, messages, presentationFor(deps, request, server)) };
        },
        { auth: true, parse: "none", params: idParam },
      )
      .post(
        "/:id/template",
        async ({ user, params, body, request, server }) => {
          const messages = await sendTemplateFromPanel(deps, user, params.id, body);
          return { ok: true, messages: presentMessages(deps, messages, presentationFor(deps, request, server)) };
        },
        { auth: true, params: idParam, body: MessageModel.template },
      )
      .post(
        "/:id/retry",
        async ({ user, params, request, server }) =>
          presentMessages(deps, [await retryMessage(deps, user, params.id)], presentationFor(deps, request, server))[0],
        { auth: true, params: idParam },
      )
      .post(
        "/:id/forward",
        async ({ user, params, body, request, server }) => {
          const messages = await forwardMessage(deps, user, params.id, body.contactIds);
          return { ok: true, messages: presentMessages(deps, messages, presentationFor(deps, request, server)) };
        },
        { auth: true, params: idParam, body: MessageModel.forward },
      )
      .post(
        "/:id/react",
        async ({ user, params, body, request, server }) =>
          presentMessages(
            deps,
            [await reactToMessage(deps, user, params.id, body.emoji)],
            presentationFor(deps, request, server),
          )[0],
        { auth: true, params: idParam, body: MessageModel.react },
      )
      .delete(
        "/:id",
        async ({ user, params }) => {
          await deleteMessage(deps, user, params.id);
          return { ok: true };
        },
        { auth: true, params: idParam },
      )
  );
}
