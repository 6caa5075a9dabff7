import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { assertSandboxEnabled, inbound, mapLid, outbox, read, reject, scan } from "./service";

const whatsappIdParam = t.Object({ whatsappId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
const phone = t.String({ minLength: 1, maxLength: 40, pattern: "^[0-9-]+$" });
const lid = t.String({ minLength: 1, maxLength: 40, pattern: "^[0-9]+$" });
/** A simulated phone: its number, or `lid:<digits>` for one that shows only its LID. */
const peer = t.String({ minLength: 1, maxLength: 44, pattern: "^([0-9-]+|lid:[0-9]+)$" });
const KINDS = ["chat", "image", "audio", "video", "document", "sticker", "vcard", "location"] as const;

/** /sandbox: drives the simulated WhatsApp network (admin only; 403 when the sandbox is off). */
export function sandboxRoutes(deps: AppDeps, tokens: Tokens) {
  const sandbox = deps.sandbox;
  // The /sandbox phone page refreshes on these instead of polling.
  sandbox?.subscribe((change) => deps.events.emit("sandbox.changed", { change }));
  return new Elysia({ prefix: "/sandbox" })
    .use(authContext(deps, tokens))
    .onBeforeHandle(() => assertSandboxEnabled(deps))
    .post(
      "/:whatsappId/scan",
      ({ params }) => {
        scan(deps, sandbox!, params.whatsappId);
        return { message: "Scanned." };
      },
      { auth: "connections:manage", params: whatsappIdParam },
    )
    .post(
      "/:whatsappId/inbound",
      async ({ params, body }) => ({ id: await inbound(deps, sandbox!, params.whatsappId, body) }),
      {
        auth: "connections:manage",
        params: whatsappIdParam,
        body: t.Object({
          from: peer,
          lid: t.Optional(lid),
          name: t.Optional(t.String({ maxLength: 100 })),
          body: t.Optional(t.String({ maxLength: 65536 })),
          mediaType: t.Optional(t.UnionEnum(KINDS)),
          mediaBase64: t.Optional(t.String({ maxLength: 100 * 1024 * 1024 })),
          fileName: t.Optional(t.String({ maxLength: 255 })),
          quotedId: t.Optional(t.String({ maxLength: 128 })),
          groupId: t.Optional(phone),
          groupName: t.Optional(t.String({ maxLength: 100 })),
          call: t.Optional(t.Literal("missed")),
          id: t.Optional(t.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9_-]+$" })),
        }),
      },
    )
    .get("/:whatsappId/outbox", ({ params, query }) => outbox(deps, sandbox!, params.whatsappId, query.to), {
      auth: "connections:manage",
      params: whatsappIdParam,
      query: t.Object({ to: t.Optional(peer) }),
    })
    .post(
      "/:whatsappId/read",
      ({ params, body }) => {
        read(deps, sandbox!, params.whatsappId, body.to);
        return { message: "Read." };
      },
      { auth: "connections:manage", params: whatsappIdParam, body: t.Object({ to: peer }) },
    )
    .post(
      "/:whatsappId/reject",
      ({ params, body }) => {
        reject(deps, sandbox!, params.whatsappId, body.id);
        return { message: "Rejected." };
      },
      {
        auth: "connections:manage",
        params: whatsappIdParam,
        body: t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) }),
      },
    )
    .post(
      "/:whatsappId/lid-mapping",
      ({ params, body }) => {
        mapLid(deps, sandbox!, params.whatsappId, body.lid, body.phone);
        return { message: "Mapped." };
      },
      {
        auth: "connections:manage",
        params: whatsappIdParam,
        body: t.Object({ lid, phone: t.String({ minLength: 8, maxLength: 20, pattern: "^[0-9]+$" }) }),
      },
    );
}
