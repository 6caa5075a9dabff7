import type { Wire } from "./wire";

/** A contact as GET /contacts and the `contact` event carry it. */
export interface ContactDto {
  id: number;
  name: string;
  /** Digits of the phone number (or the group id); null while WhatsApp shows the person only by their LID. */
  number: string | null;
  /** WhatsApp's private id for the person (LID digits), when known. */
  lid: string | null;
  email: string;
  profilePicUrl: string;
  pictureCheckedAt: Date | null;
  isGroup: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A contact as an island receives it. */
export type Contact = Wire<ContactDto>;
