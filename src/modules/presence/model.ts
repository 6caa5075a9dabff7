import { t } from "elysia";
import { oneOf } from "../../http/fields";
import { AGENT_PRESENCES } from "../../shared/contracts/presence";

export namespace PresenceModel {
  export const body = t.Object({ state: oneOf(AGENT_PRESENCES) });
}
