import { t } from "elysia";
import type { TemplateMessage } from "../shared/contracts/templates";
import { schemaOf } from "./contract-schema";

const value = t.String({ minLength: 1, maxLength: 1024 });

/**
 * An approved template to send (POST /messages/:ticketId/template, and the optional `template` of schedules,
 * campaign recipients and the external API): name, language and the values of its placeholders.
 */
export const templateMessage = schemaOf<TemplateMessage>()(
  t.Object({
    name: t.String({ minLength: 1, maxLength: 512 }),
    language: t.String({ minLength: 2, maxLength: 15 }),
    parameters: t.Array(value, { maxItems: 20 }),
    header: t.Optional(t.String({ minLength: 1, maxLength: 2048 })),
    buttons: t.Optional(t.Array(value, { maxItems: 10 })),
  }),
);
