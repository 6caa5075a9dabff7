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

/** A user's default connection: its id, or none (`null`; the whaticket family's clients send 0, "" or false). */
export type DefaultConnection = number | null | "" | false;

/** POST /users. */
export interface NewUser {
  name: string;
  email: string;
  password: string;
  profile?: Role;
  whatsappId?: DefaultConnection;
  queueIds?: number[];
}

/**
 * PUT /users/:id: the fields that change (one's own profile, or any user's by an admin). A new password of one's
 * own account comes with `currentPassword`.
 */
export interface UserChanges extends Partial<Omit<NewUser, "password">> {
  password?: string;
  currentPassword?: string;
}
