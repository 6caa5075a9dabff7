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

/** One extra field of a contact as its form sends it; `id` names a field the contact already has. */
export interface ContactExtraField {
  id?: number;
  name: string;
  value?: string;
}

/** POST /contacts. The number may carry formatting (spaces, `+`, dashes): the server keeps its digits. */
export interface NewContact {
  name: string;
  number: string;
  email?: string;
  extraInfo?: ContactExtraField[];
}

/** PUT /contacts/:id: the fields that change; `extraInfo`, when sent, is the whole new list. */
export type ContactChanges = Partial<NewContact>;

/** POST /contact: the contact with this number, created with this name when there is none. */
export interface ContactByNumber {
  name: string;
  number: string;
  email?: string;
}

/** GET /contacts/list: the contacts whose name contains `name`. */
export interface ContactNameQuery {
  name?: string;
}
