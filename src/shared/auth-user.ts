import type { Role } from "./permissions";

/** The signed-in user as routes and sockets see it. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  profile: Role;
  tokenVersion: number;
  whatsappId: number | null;
  queueIds: number[];
  /** The refresh family (signed-in device) the access token belongs to; absent on tokens issued without one. */
  familyId?: number;
}
