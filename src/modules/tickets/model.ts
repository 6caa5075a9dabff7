import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { idList } from "../../http/fields";
import type { TicketEventQuery } from "../../shared/contracts/ticket-events";
import {
  type ContactTicketQuery,
  DRAFT_MAX_LENGTH,
  type NewTicket,
  type TicketChanges,
  type TicketDraftChanges,
  type TicketListQuery,
  type TicketSnooze,
  type TicketTags,
} from "../../shared/contracts/tickets";

const id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const status = t.Union([t.Literal("open"), t.Literal("pending"), t.Literal("closed")]);

export namespace TicketModel {
  export const list = schemaOf<TicketListQuery>()(
    t.Object({
      status: t.Optional(status),
      searchParam: t.Optional(t.String({ maxLength: 200 })),
      pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
      // The previous page's last ticket (updatedAt in epoch ms, id): given both, the page continues after it.
      beforeUpdatedAt: t.Optional(t.Numeric({ minimum: 0, maximum: 8_640_000_000_000_000 })),
      beforeId: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
      date: t.Optional(t.String({ maxLength: 40 })),
      updatedAt: t.Optional(t.String({ maxLength: 40 })),
      showAll: t.Optional(t.BooleanString()),
      withUnreadMessages: t.Optional(t.BooleanString()),
      snoozed: t.Optional(t.BooleanString()),
      slaBreached: t.Optional(t.BooleanString()),
      queueIds: idList("queueIds"),
      tags: idList("tags"),
    }),
  );
  export type List = TicketListQuery;

  export const update = schemaOf<TicketChanges>()(
    t.Object({
      status: t.Optional(status),
      userId: t.Optional(t.Nullable(id)),
      queueId: t.Optional(t.Nullable(id)),
      whatsappId: t.Optional(id),
    }),
  );
  export type Update = TicketChanges;

  export const create = schemaOf<NewTicket>()(
    t.Object({
      contactId: id,
      userId: t.Optional(t.Nullable(id)),
      status: t.Optional(status),
      queueId: t.Optional(t.Nullable(id)),
    }),
  );
  export type Create = NewTicket;

  export const contactTickets = schemaOf<ContactTicketQuery>()(
    t.Object({ pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })) }),
  );

  export const events = schemaOf<TicketEventQuery>()(
    t.Object({
      pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
      from: t.Optional(t.String({ maxLength: 40 })),
      to: t.Optional(t.String({ maxLength: 40 })),
    }),
  );
  export type Events = TicketEventQuery;

  // The instant is checked by the service (a date in the future), so a bad one answers with the field's rule.
  export const snooze = schemaOf<TicketSnooze>()(t.Object({ until: t.String({ maxLength: 40 }) }));
  export type Snooze = TicketSnooze;

  export const draft = schemaOf<TicketDraftChanges>()(t.Object({ body: t.String({ maxLength: DRAFT_MAX_LENGTH }) }));
  export type Draft = TicketDraftChanges;

  export const phoneParam = t.Object({ phone: t.String({ maxLength: 50 }) });

  export const syncTags = schemaOf<TicketTags>()(
    t.Object({ ticketId: id, tags: t.Array(t.Object({ id }), { maxItems: 200 }) }),
  );
  export type SyncTags = TicketTags;
}
