import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { ComposingThrottle, showAgentPresence } from "./agent";
import { PresenceModel } from "./model";

/** POST /tickets/:id/presence: the agent opened the chat, is typing, or stopped (see showAgentPresence). */
export function presenceRoutes(deps: AppDeps, tokens: Tokens) {
  const throttle = new ComposingThrottle(deps.clock);
  return new Elysia().use(authContext(deps, tokens)).post(
    "/tickets/:id/presence",
    async ({ user, params, body }) => {
      await showAgentPresence(deps, throttle, user, params.id, body.state);
      return { ok: true };
    },
    { auth: true, params: idParam, body: PresenceModel.body },
  );
}
