import type { Wire } from "./wire";
/** A tag as GET /tags carries it, with the number of tickets that carry it. */
export interface TagDto {
  id: number;
  name: string;
  color: string;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
  ticketsCount: number;
}

/** A tag as an island receives it. */
export type Tag = Wire<TagDto>;

/** POST /tags. */
export interface NewTag {
  name: string;
  color?: string;
}

/** PUT /tags/:id: the fields that change. */
export type TagChanges = Partial<NewTag>;
