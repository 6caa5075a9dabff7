import type { Wire } from "./wire";

/**
 * How a ticket that lands in a queue without an agent finds one: `manual` waits for someone to accept it,
 * `round_robin` gives it to the queue's online members in turn, `least_busy` to the one with the fewest open
 * tickets in the queue.
 */
export const QUEUE_ASSIGNMENTS = ["manual", "round_robin", "least_busy"] as const;
export type QueueAssignment = (typeof QUEUE_ASSIGNMENTS)[number];

/** A queue as GET /queue lists it (without its chatbot tree). */
export interface QueueDto {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  assignment: QueueAssignment;
  /** The most open tickets of the queue a rule gives one agent; 0 = no cap. */
  maxOpenPerAgent: number;
  /** SLA target for an agent's first reply to the customer, in minutes; 0 = none. */
  firstResponseMinutes: number;
  /** SLA target for resolving a ticket (from its creation or reopening), in minutes; 0 = none. */
  resolutionMinutes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The part of a queue a picker or a filter shows. */
export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/** A chatbot option of a queue's tree as the queue editor holds it (ids only on saved options). */
export interface ChatbotOption {
  id?: number;
  name: string;
  greetingMessage: string;
  isAgent: boolean;
  userId: number | null;
  options: ChatbotOption[];
}

/** A saved chatbot option with its whole subtree. */
export interface ChatbotDto {
  id: number;
  name: string;
  greetingMessage: string;
  isAgent: boolean;
  userId: number | null;
  queueId: number | null;
  parentId: number | null;
  options: ChatbotDto[];
}

/** A queue with its whole chatbot tree (GET /queue/:id, and the `queue` socket event). */
export interface QueueWithChatbotsDto extends QueueDto {
  chatbots: ChatbotDto[];
}

/** A queue as an island receives it. */
export type Queue = Wire<QueueDto>;

/** A chatbot option as the queue form sends it, with its nested options; `id` names an option already saved. */
export interface ChatbotOptionInput {
  id?: number;
  name: string;
  greetingMessage?: string;
  isAgent?: boolean;
  userId?: number | null;
  options?: ChatbotOptionInput[];
}

/** POST /queue; `chatbots`, when sent, is the queue's whole chatbot tree. */
export interface NewQueue {
  name: string;
  color: string;
  greetingMessage?: string;
  /** `manual` when absent on creation. */
  assignment?: QueueAssignment;
  /** 0 (no cap) when absent on creation. */
  maxOpenPerAgent?: number;
  chatbots?: ChatbotOptionInput[];
  /** SLA targets in minutes (0 = none, the default). */
  firstResponseMinutes?: number;
  resolutionMinutes?: number;
}

/** PUT /queue/:id: the fields that change. */
export type QueueChanges = Partial<NewQueue>;

/** DELETE /queue/:id: the queue its tickets move to, else they are left without one. */
export interface QueueDeleteQuery {
  moveTo?: number;
}
