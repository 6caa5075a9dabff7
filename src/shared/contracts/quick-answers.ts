import type { Wire } from "./wire";

/** A quick answer as GET /quickAnswers and the `quickAnswer` event carry it. */
export interface QuickAnswerDto {
  id: number;
  shortcut: string;
  message: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A quick answer as an island receives it. */
export type QuickAnswer = Wire<QuickAnswerDto>;

/** POST /quickAnswers. */
export interface NewQuickAnswer {
  shortcut: string;
  message: string;
}

/** PUT /quickAnswers/:id: the fields that change. */
export type QuickAnswerChanges = Partial<NewQuickAnswer>;
