import { basename } from "node:path";

/** What a cloud connection calls the Graph API with. */
export interface CloudCredentials {
  phoneNumberId: string;
  accessToken: string;
}

/** The Graph API refused a call; `auth` when the token is the problem (expired, revoked, wrong). */
export class GraphError extends Error {
  readonly auth: boolean;
  /** Worth trying again later: rate limits and the server's own failures. */
  readonly transient: boolean;

  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
    this.auth = status === 401 || code === 190;
    this.transient = status === 429 || status >= 500 || code === 4 || code === 80007 || code === 130429;
  }
}

/** A template as the Graph API lists it (only the fields read here). */
export interface GraphTemplate {
  name: string;
  language: string;
  status?: string;
  category?: string;
  components?: {
    type: string;
    format?: string;
    text?: string;
    buttons?: { type?: string; text?: string; url?: string }[];
  }[];
}

/** The media object the Cloud API describes at `/{media-id}`. */
export interface MediaDescription {
  url: string;
  mime_type: string;
  file_size?: number;
}

/**
 * The few Graph API calls the cloud driver makes, against `baseUrl` (WHATSAPP_CLOUD_API_URL) and `version`.
 * Every call carries the connection's token; answers that are not 2xx throw GraphError.
 */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly version: string,
  ) {}

  /** The business phone number behind the credentials (also how the token is checked). */
  async phoneNumber(c: CloudCredentials): Promise<{ display_phone_number?: string; verified_name?: string }> {
    return await this.call(c, "GET", encodeURIComponent(c.phoneNumberId));
  }

  /** Sends one message payload; returns the id the Cloud API gave it. */
  async send(c: CloudCredentials, payload: object): Promise<string> {
    const answer = await this.call<{ messages?: { id: string }[] }>(c, "POST", `${c.phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      ...payload,
    });
    const id = answer.messages?.[0]?.id;
    if (!id) throw new GraphError(200, undefined, "the Cloud API gave the message no id");
    return id;
  }

  /** The account's approved templates (the first 200). */
  async templates(c: CloudCredentials, businessAccountId: string): Promise<GraphTemplate[]> {
    const answer = await this.call<{ data?: GraphTemplate[] }>(
      c,
      "GET",
      `${encodeURIComponent(businessAccountId)}/message_templates?status=APPROVED&limit=200&fields=name,language,status,category,components`,
    );
    return answer.data ?? [];
  }

  /** Marks an inbound message (and the ones before it) read. */
  async markRead(c: CloudCredentials, messageId: string): Promise<void> {
    await this.call(c, "POST", `${c.phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
    });
  }

  /** Uploads a file for sending; returns its media id. */
  async upload(c: CloudCredentials, path: string, mimetype: string, fileName = basename(path)): Promise<string> {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", mimetype);
    form.set("file", new File([Bun.file(path)], fileName, { type: mimetype }));
    return (await this.call<{ id: string }>(c, "POST", `${c.phoneNumberId}/media`, form)).id;
  }

  async describeMedia(c: CloudCredentials, mediaId: string): Promise<MediaDescription> {
    return await this.call(c, "GET", encodeURIComponent(mediaId));
  }

  /** Opens a media file's download (its URL needs the token too). */
  async download(c: CloudCredentials, url: string, signal: AbortSignal): Promise<Response> {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${c.accessToken}` }, signal });
    if (!response.ok) throw await graphError(response);
    return response;
  }

  private async call<T>(c: CloudCredentials, method: string, path: string, body?: object | FormData): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${c.accessToken}` };
    if (body && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
    const response = await fetch(`${this.baseUrl}/${this.version}/${path}`, {
      method,
      headers,
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw await graphError(response);
    return (await response.json()) as T;
  }
}

async function graphError(response: Response): Promise<GraphError> {
  const answer = (await response.json().catch(() => ({}))) as { error?: { message?: string; code?: number } };
  return new GraphError(
    response.status,
    answer.error?.code,
    answer.error?.message || `the Cloud API answered ${response.status}`,
  );
}

/** The addressee of a send: the Cloud API reaches phone numbers only (no groups, no LIDs). */
export function recipient(to: string, isGroup: boolean) {
  if (isGroup || !/^\d+$/.test(to)) throw new Error("the Cloud API reaches phone numbers only");
  return { recipient_type: "individual", to };
}

/** What a failed call says, as a connection's status shows it. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
