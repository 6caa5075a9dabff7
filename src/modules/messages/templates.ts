import type { CheckedTemplate, MessageTemplate, TemplateMessage } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { AppError, FieldError } from "../../errors";
import { renderTemplate } from "../../shared/templates";

/**
 * A template to send, checked against the connection's approved ones: it must exist, with every body placeholder
 * filled, a value for a header that takes one (a web link for a media header) and none for another, and one value
 * per URL button with a placeholder (FieldError `name`, `parameters`, `header` or `buttons` otherwise). Returns it
 * as the network sends it, with the text it shows in the chat.
 */
export async function checkedTemplate(
  deps: AppDeps,
  connectionId: number,
  input: TemplateMessage,
): Promise<{ template: CheckedTemplate; text: string }> {
  return checkAgainst(await deps.channels.templates(connectionId), input);
}

function checkAgainst(approved: MessageTemplate[], input: TemplateMessage) {
  const offered = approved.find((t) => t.name === input.name && t.language === input.language);
  if (!offered) throw new FieldError("name", "invalid");
  if (input.parameters.length !== offered.variables) throw new FieldError("parameters", "invalid");
  checkHeader(offered, input.header);
  const buttons = offered.urlButtons ?? [];
  if ((input.buttons ?? []).length !== buttons.length) throw new FieldError("buttons", "invalid");
  const template: CheckedTemplate = {
    name: input.name,
    language: input.language,
    parameters: input.parameters,
    ...(offered.header ? { header: input.header, headerType: offered.header.type } : {}),
    ...(buttons.length ? { buttons: input.buttons, buttonIndexes: buttons.map((b) => b.index) } : {}),
  };
  return { template, text: renderTemplate(offered.body, input.parameters) || offered.name };
}

function checkHeader(offered: MessageTemplate, value: string | undefined) {
  if (!offered.header) {
    if (value !== undefined) throw new FieldError("header", "invalid");
    return;
  }
  if (!value?.trim()) throw new FieldError("header", "required");
  if (offered.header.type !== "text" && !isWebLink(value)) throw new FieldError("header", "invalid");
}

function isWebLink(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Checks the templates jobs are to send later (see checkedTemplate), each under its own field name (e.g.
 * `0.template`), while their connection can tell: on a connection not running here they are checked when sent.
 * Each connection's templates are asked for once.
 */
export async function checkTemplatesAhead(
  deps: AppDeps,
  items: { connectionId: number; template: TemplateMessage; field: string }[],
) {
  const approved = new Map<number, Promise<MessageTemplate[] | undefined>>();
  for (const { connectionId, template, field } of items) {
    if (!approved.has(connectionId)) approved.set(connectionId, templatesIfRunning(deps, connectionId));
    const list = await approved.get(connectionId);
    if (!list) continue;
    try {
      checkAgainst(list, template);
    } catch (error) {
      if (error instanceof FieldError) throw new FieldError(`${field}.${error.field}`, error.rule);
      throw error;
    }
  }
}

async function templatesIfRunning(deps: AppDeps, connectionId: number): Promise<MessageTemplate[] | undefined> {
  try {
    return await deps.channels.templates(connectionId);
  } catch (error) {
    if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED") return undefined;
    throw error;
  }
}

/** A template kept by a job as JSON (see the `template` columns), or undefined. */
export function storedTemplate(json: string | null | undefined): TemplateMessage | undefined {
  return json ? (JSON.parse(json) as TemplateMessage) : undefined;
}

/** What an own message keeps of the template it was sent as (see the outbox). */
export function templateData(template: CheckedTemplate): string {
  return JSON.stringify({ template });
}
