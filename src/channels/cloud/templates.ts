import type { CheckedTemplate, MessageTemplate, TemplateHeaderType } from "../types";
import type { GraphTemplate } from "./graph";

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;
const MEDIA_HEADERS: Record<string, TemplateHeaderType> = { IMAGE: "image", VIDEO: "video", DOCUMENT: "document" };

/**
 * The approved templates as the composer offers them: their body text and how many placeholders it has, a header
 * that takes a value (a text one with a placeholder, or a media one) and the URL buttons that end in a placeholder.
 */
export function offeredTemplates(listed: GraphTemplate[]): MessageTemplate[] {
  return listed
    .filter((t) => (t.status ?? "APPROVED") === "APPROVED")
    .map((t) => {
      const body = t.components?.find((c) => c.type === "BODY")?.text ?? "";
      const variables = new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1])).size;
      const header = headerOf(t);
      const urlButtons = (t.components?.find((c) => c.type === "BUTTONS")?.buttons ?? [])
        .map((b, index) => ({ index, text: b.text ?? "", url: b.url ?? "", type: b.type }))
        .filter((b) => b.type === "URL" && new RegExp(PLACEHOLDER.source).test(b.url))
        .map(({ index, text, url }) => ({ index, text, url }));
      return {
        name: t.name,
        language: t.language,
        category: t.category ?? "",
        body,
        variables,
        ...(header ? { header } : {}),
        ...(urlButtons.length ? { urlButtons } : {}),
      };
    });
}

function headerOf(t: GraphTemplate): MessageTemplate["header"] {
  const header = t.components?.find((c) => c.type === "HEADER");
  if (!header) return undefined;
  const media = MEDIA_HEADERS[header.format ?? ""];
  if (media) return { type: media };
  const text = header.text ?? "";
  return header.format === "TEXT" && new RegExp(PLACEHOLDER.source).test(text) ? { type: "text", text } : undefined;
}

/** The `template` object of a send: the header's value, the body's placeholders in order, the URL buttons' values. */
export function templatePayload(template: CheckedTemplate) {
  const components: object[] = [];
  if (template.header !== undefined && template.headerType)
    components.push({ type: "header", parameters: [headerParameter(template.headerType, template.header)] });
  if (template.parameters.length)
    components.push({ type: "body", parameters: template.parameters.map((text) => ({ type: "text", text })) });
  for (const [i, text] of (template.buttons ?? []).entries())
    components.push({
      type: "button",
      sub_type: "url",
      index: String(template.buttonIndexes?.[i] ?? i),
      parameters: [{ type: "text", text }],
    });
  return {
    name: template.name,
    language: { code: template.language },
    ...(components.length ? { components } : {}),
  };
}

function headerParameter(type: TemplateHeaderType, value: string) {
  return type === "text" ? { type: "text", text: value } : { type, [type]: { link: value } };
}
