import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { oneOf } from "../../http/fields";
import {
  SANDBOX_MESSAGE_KINDS,
  type SandboxInbound,
  type SandboxLidMapping,
  type SandboxRead,
  type SandboxReject,
} from "../../shared/contracts/sandbox";
import { CHAT_PRESENCES, type SandboxPresence } from "../../shared/contracts/presence";

const phone = t.String({ minLength: 1, maxLength: 40, pattern: "^[0-9-]+$" });
const lid = t.String({ minLength: 1, maxLength: 40, pattern: "^[0-9]+$" });
/** A simulated phone: its number, or `lid:<digits>` for one that shows only its LID. */
const peer = t.String({ minLength: 1, maxLength: 44, pattern: "^([0-9-]+|lid:[0-9]+)$" });

export namespace SandboxModel {
  export const params = t.Object({ whatsappId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

  export const inbound = schemaOf<SandboxInbound>()(
    t.Object({
      from: peer,
      lid: t.Optional(lid),
      name: t.Optional(t.String({ maxLength: 100 })),
      body: t.Optional(t.String({ maxLength: 65536 })),
      mediaType: t.Optional(t.UnionEnum(SANDBOX_MESSAGE_KINDS)),
      mediaBase64: t.Optional(t.String({ maxLength: 100 * 1024 * 1024 })),
      fileName: t.Optional(t.String({ maxLength: 255 })),
      quotedId: t.Optional(t.String({ maxLength: 128 })),
      groupId: t.Optional(phone),
      groupName: t.Optional(t.String({ maxLength: 100 })),
      call: t.Optional(t.Literal("missed")),
      id: t.Optional(t.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9_-]+$" })),
    }),
  );

  export const presence = schemaOf<SandboxPresence>()(t.Object({ from: peer, state: oneOf(CHAT_PRESENCES) }));
  export const presenceQuery = t.Object({ to: peer });
  export const outboxQuery = t.Object({ to: t.Optional(peer) });
  export const read = schemaOf<SandboxRead>()(t.Object({ to: peer }));
  export const reject = schemaOf<SandboxReject>()(t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) }));
  export const lidMapping = schemaOf<SandboxLidMapping>()(
    t.Object({ lid, phone: t.String({ minLength: 8, maxLength: 20, pattern: "^[0-9]+$" }) }),
  );
}
