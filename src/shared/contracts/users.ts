import type { Wire } from "./wire";
import type { Role } from "../permissions";

/** The user as every API answer shows it (never the hash or the token version). */
export interface UserDto {
  id: number;
  name: string;
  email: string;
  profile: Role;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  queues: { id: number; name: string; color: string }[];
  createdAt: Date;
  updatedAt: Date;
}

/** A user as an island receives it. */
export type User = Wire<UserDto>;
