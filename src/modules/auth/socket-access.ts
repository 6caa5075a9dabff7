import type { AppDeps } from "../../deps";
import type { AccessChecks } from "../../realtime/registry";
import { userMaySeeTicketId } from "../tickets/access";
import { currentSessionUser, sessionFromAccessToken } from "./plugin";
import type { Tokens } from "./tokens";

/** The checks the socket registry makes with the app's own sessions and ticket access rules. */
export function socketAccess(deps: AppDeps, tokens: Tokens): AccessChecks {
  return {
    reloadUser: (user) => currentSessionUser(deps, user),
    maySeeTicket: (user, ticketId) => userMaySeeTicketId(deps.db, user, ticketId),
    verifyToken: (token) => sessionFromAccessToken(deps, tokens, token),
  };
}
