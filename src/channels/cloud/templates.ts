import type { MessageTemplate, TemplateMessage } from "../types";
import type { GraphTemplate } from "./graph";

/** The approved templates as the composer offers them: their body text and how many placeholders it has. */
export function offeredTemplates(listed: GraphTemplate[]): MessageTemplate[] {
  return listed
    .filter((t) => (t.status ?? "APPROVED") === "APPROVED")
    .map((t) => {
      const body = t.components?.find((c) => c.type === "BODY")?.text ?? "";
      const variables = new Set([...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
      return { name: t.name, language: t.language, category: t.category ?? "", body, variables };
    });
}

/** The `template` object of a send: the body's placeholders filled in order. */
export function templatePayload(template: TemplateMessage) {
  return {
    name: template.name,
    language: { code: template.language },
    ...(template.parameters.length
      ? {
          components: [{ type: "body", parameters: template.parameters.map((text) => ({ type: "text", text })) }],
        }
      : {}),
  };
}
