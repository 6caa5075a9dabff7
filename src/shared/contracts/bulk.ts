import type { TemplateMessage } from "./templates";

/**
 * One recipient of POST /bulkMessage: the text to send, the phone and the connection to send it from, and the
 * template to send instead when the customer is outside the Cloud API's 24-hour window (skipped without one).
 */
export interface BulkRecipient {
  message: string;
  phone: string;
  whatsappId: number;
  template?: TemplateMessage;
}

/** What POST /bulkMessage answers: the records stored (one per distinct recipient) and their ids. */
export interface BulkStoredDto {
  created: number;
  skippedDuplicates: number;
  ids: number[];
}

/**
 * POST /settingsMessage: a connection's bulk-sending pace and filters; what is left out keeps its value.
 * `contact` is the seed client's name for `contacts`.
 */
export interface BulkSettingsChanges {
  whatsappId: number;
  limit?: number;
  minutes?: number;
  seconds?: number;
  contacts?: boolean;
  contact?: boolean;
  photo?: boolean;
  random?: boolean;
  optOut?: string;
}
