import type { CheckedTemplate, MessageTemplate, TemplateMessage } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { FieldError } from "../../errors";
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
  const offered = (await deps.channels.templates(connectionId)).find(
    (t) => t.name === input.name && t.language === input.language,
  );
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

/** A template kept by a job as JSON (see the `template` columns), or undefined. */
export function storedTemplate(json: string | null | undefined): TemplateMessage | undefined {
  return json ? (JSON.parse(json) as TemplateMessage) : undefined;
}

/** What an own message keeps of the template it was sent as (see the outbox). */
export function templateData(template: CheckedTemplate): string {
  return JSON.stringify({ template });
}
