import type { Config } from "../../config";
import { AppError } from "../../errors";
import { bodyLimitFor } from "../../http/body-limits";
import { parseJson, readCapped } from "../../http/body-reader";
import type { TemplateMessage } from "../../shared/contracts/templates";
import type { ApiMessage } from "./service";

const MAX_FILES = 10;
const MAX_NUMBER = 64;
const invalid = () => new AppError("ERR_INVALID_BODY");

function optionalId(value: unknown): number | undefined {
  if (value == null || value === "") return undefined;
  const id = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (!(typeof id === "number" && Number.isSafeInteger(id) && id > 0)) throw invalid();
  return id;
}

function optionalFlag(value: unknown): boolean {
  if (value == null || value === "" || value === false || value === "false" || value === "0") return false;
  if (value === true || value === "true" || value === "1") return true;
  throw invalid();
}

const text = (value: unknown, min: number, max: number) =>
  typeof value === "string" && value.length >= min && value.length <= max;
const texts = (value: unknown, maxItems: number) =>
  Array.isArray(value) && value.length <= maxItems && value.every((v) => text(v, 1, 1024));

/** The optional `template` (an object, or its JSON in a multipart field), shaped as POST /messages/:id/template's. */
function optionalTemplate(value: unknown): TemplateMessage | undefined {
  if (value == null || value === "") return undefined;
  const parsed = typeof value === "string" ? parseJson(value) : value;
  const { name, language, parameters, header, buttons } = (parsed ?? {}) as Record<string, unknown>;
  const valid =
    text(name, 1, 512) &&
    text(language, 2, 15) &&
    texts(parameters, 20) &&
    (header === undefined || text(header, 1, 2048)) &&
    (buttons === undefined || texts(buttons, 10));
  if (!valid) throw invalid();
  return {
    name,
    language,
    parameters,
    ...(header !== undefined ? { header } : {}),
    ...(buttons !== undefined ? { buttons } : {}),
  } as TemplateMessage;
}

function requiredNumber(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== "string" || value.length > MAX_NUMBER) throw new AppError("ERR_INVALID_NUMBER");
  return value;
}

/**
 * Reads POST /api/messages/send within its body limit: JSON `{number, body, whatsappId?, quotedMsg?: {id},
 * closeTicket?, template?}`, or multipart with the same fields as text and the files as `medias`. Read by hand rather than
 * through a body schema because Elysia buffers and parses the whole body first, and this stops at the limit.
 */
export async function readApiMessage(request: Request, config: Config): Promise<ApiMessage> {
  const type = request.headers.get("content-type") ?? "";
  const mediaType = type.split(";")[0]!.trim().toLowerCase();
  const bytes = await readCapped(
    request,
    bodyLimitFor(config, request.method, new URL(request.url).pathname, mediaType).bytes,
  );
  if (mediaType === "multipart/form-data") {
    const form = await new Response(bytes, { headers: { "content-type": type } }).formData().catch(() => {
      throw invalid();
    });
    const files = form.getAll("medias").filter((v): v is File => typeof v !== "string");
    if (files.length > MAX_FILES) throw invalid();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : undefined;
    };
    return {
      number: requiredNumber(field("number")),
      body: field("body"),
      whatsappId: optionalId(field("whatsappId")),
      closeTicket: optionalFlag(field("closeTicket")),
      template: optionalTemplate(field("template")),
      files,
    };
  }
  const json = parseJson(new TextDecoder().decode(bytes) || "{}");
  if (!json || typeof json !== "object" || Array.isArray(json)) throw invalid();
  const { number, body, whatsappId, quotedMsg, closeTicket, template } = json as Record<string, unknown>;
  if (body != null && typeof body !== "string") throw invalid();
  const quotedId = quotedMsg && typeof quotedMsg === "object" ? (quotedMsg as { id?: unknown }).id : undefined;
  return {
    number: requiredNumber(number),
    body: body ?? undefined,
    whatsappId: optionalId(whatsappId),
    quotedMsgId: optionalId(quotedId),
    closeTicket: optionalFlag(closeTicket),
    template: optionalTemplate(template),
  };
}
