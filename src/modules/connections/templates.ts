import type { MessageTemplate } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { notFound } from "../../errors";
import { connectionExists } from "./lookup";

/** GET /whatsapp/:id/templates: the connection's approved templates (Cloud API connections; none elsewhere). */
export async function listTemplates(deps: AppDeps, id: number): Promise<MessageTemplate[]> {
  if (!(await connectionExists(deps.db, id))) throw notFound("ERR_NO_WAPP_FOUND");
  return await deps.channels.templates(id);
}
