import type { AppDeps } from "../../deps";
import type { AccessChecks } from "../../realtime/registry";
import { canSeeTicket, userMaySeeTicketId } from "../tickets/access";
import { findTicket } from "../tickets/records";
import { sessionFromAccessToken } from "./plugin";
import { currentSessionUser } from "./session-user";
import type { Tokens } from "./tokens";

/** The checks the socket registry makes with the app's own sessions and ticket access rules. */
export function socketAccess(deps: AppDeps, tokens: Tokens): AccessChecks {
  return {
    reloadUser: async (user) => await currentSessionUser(deps.db, user),
    maySeeTicket: async (user, ticketId) => await userMaySeeTicketId(deps.db, user, ticketId),
    ticketVisibility: async (ticketId) => {
      const ticket = await findTicket(deps.db, ticketId);
      return (user) => !!ticket && canSeeTicket(user, ticket);
    },
    verifyToken: (token) => sessionFromAccessToken(deps, tokens, token),
  };
}
