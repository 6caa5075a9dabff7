import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { SandboxModel } from "./model";
import { assertSandboxEnabled, inbound, mapLid, outbox, presence, presenceShown, read, reject, scan } from "./service";

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
      async ({ params }) => {
        await scan(deps, sandbox!, params.whatsappId);
        return { message: "Scanned." };
      },
      { auth: "connections:manage", params: SandboxModel.params },
    )
    .post(
      "/:whatsappId/inbound",
      async ({ params, body }) => ({ id: await inbound(deps, sandbox!, params.whatsappId, body) }),
      {
        auth: "connections:manage",
        params: SandboxModel.params,
        body: SandboxModel.inbound,
      },
    )
    .get(
      "/:whatsappId/outbox",
      async ({ params, query }) => await outbox(deps, sandbox!, params.whatsappId, query.to),
      {
        auth: "connections:manage",
        params: SandboxModel.params,
        query: SandboxModel.outboxQuery,
      },
    )
    .post(
      "/:whatsappId/read",
      async ({ params, body }) => {
        await read(deps, sandbox!, params.whatsappId, body.to);
        return { message: "Read." };
      },
      { auth: "connections:manage", params: SandboxModel.params, body: SandboxModel.read },
    )
    .post(
      "/:whatsappId/reject",
      async ({ params, body }) => {
        await reject(deps, sandbox!, params.whatsappId, body.id);
        return { message: "Rejected." };
      },
      {
        auth: "connections:manage",
        params: SandboxModel.params,
        body: SandboxModel.reject,
      },
    )
    .post(
      "/:whatsappId/presence",
      async ({ params, body }) => {
        await presence(deps, sandbox!, params.whatsappId, body);
        return { message: "Presence sent." };
      },
      { auth: "connections:manage", params: SandboxModel.params, body: SandboxModel.presence },
    )
    .get(
      "/:whatsappId/presence",
      async ({ params, query }) => await presenceShown(deps, sandbox!, params.whatsappId, query.to),
      { auth: "connections:manage", params: SandboxModel.params, query: SandboxModel.presenceQuery },
    )
    .post(
      "/:whatsappId/lid-mapping",
      async ({ params, body }) => {
        await mapLid(deps, sandbox!, params.whatsappId, body.lid, body.phone);
        return { message: "Mapped." };
      },
      {
        auth: "connections:manage",
        params: SandboxModel.params,
        body: SandboxModel.lidMapping,
      },
    );
}
