import { createHmac } from "node:crypto";

/** A message payload the fake received on `POST /{version}/{phone-number-id}/messages`, with the id it answered. */
export interface GraphSend {
  id: string;
  phoneNumberId: string;
  body: Record<string, unknown> & { type?: string; to?: string; status?: string };
}

export interface GraphUpload {
  id: string;
  mimetype: string;
  fileName: string;
  bytes: Uint8Array;
}

/**
 * A local stand-in for Meta's Graph API (the WhatsApp Cloud API's part): one phone number, a token it accepts,
 * sends recorded and answered with an id, media uploads kept, media described at `/{media-id}` and downloaded
 * with the token. `token` can be changed to play an expired one; `failNext` answers the next message sends (not read marks) with an error.
 */
export class FakeGraph {
  readonly sends: GraphSend[] = [];
  readonly uploads: GraphUpload[] = [];
  readonly media = new Map<string, { mimetype: string; bytes: Uint8Array }>();
  /** How many media downloads were asked for, and with which tokens. */
  readonly downloads: string[] = [];
  token = "good-token";
  /** What `/{business-account-id}/message_templates` lists (any account id). */
  templates: object[] = [
    {
      name: "order_update",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega." }],
    },
    { name: "draft_offer", language: "en_US", status: "PENDING", components: [{ type: "BODY", text: "Hi" }] },
  ];
  /** Answers the next message sends with these statuses and Graph error codes (429 / 4: rate limit). */
  readonly failNext: { status: number; code: number; message: string }[] = [];
  private seq = 0;
  private readonly server: ReturnType<typeof Bun.serve>;

  constructor(
    readonly phoneNumberId = "1065432100",
    readonly displayNumber = "+55 11 3333-4444",
  ) {
    this.server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => this.handle(request) });
  }

  /** WHATSAPP_CLOUD_API_URL for the app. */
  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Media a customer "sent": what `/{media-id}` describes and its URL serves. */
  addMedia(mimetype: string, bytes: Uint8Array): string {
    const id = `media-${++this.seq}`;
    this.media.set(id, { mimetype, bytes });
    return id;
  }

  stop() {
    this.server.stop(true);
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] === "download") return this.download(request, parts[1]!);
    if (request.headers.get("authorization") !== `Bearer ${this.token}`)
      return Response.json(
        { error: { message: "Error validating access token: Session has expired", type: "OAuthException", code: 190 } },
        { status: 401 },
      );
    const [, id, edge] = parts;
    if (request.method === "GET" && id === this.phoneNumberId && !edge)
      return Response.json({ id, display_phone_number: this.displayNumber, verified_name: "Zapdesk Test" });
    if (request.method === "GET" && id && this.media.has(id)) {
      const m = this.media.get(id)!;
      return Response.json({ id, url: `${this.url}/download/${id}`, mime_type: m.mimetype, file_size: m.bytes.length });
    }
    if (request.method === "GET" && edge === "message_templates")
      return Response.json({
        data: this.templates.filter(
          (t) => url.searchParams.get("status") !== "APPROVED" || (t as { status: string }).status === "APPROVED",
        ),
      });
    if (id !== this.phoneNumberId) return graphError(400, 100, "Unsupported request: unknown object");
    if (request.method === "POST" && edge === "messages") {
      const body = (await request.json()) as GraphSend["body"];
      const failure = body.status === "read" ? undefined : this.failNext.shift();
      if (failure) return graphError(failure.status, failure.code, failure.message);
      const sent = { id: `wamid.${++this.seq}`, phoneNumberId: id, body };
      this.sends.push(sent);
      return body.status === "read"
        ? Response.json({ success: true })
        : Response.json({ messaging_product: "whatsapp", contacts: [{ wa_id: body.to }], messages: [{ id: sent.id }] });
    }
    if (request.method === "POST" && edge === "media") {
      const form = await request.formData();
      const file = form.get("file") as File;
      const upload = {
        id: `upload-${++this.seq}`,
        mimetype: String(form.get("type")),
        fileName: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      };
      this.uploads.push(upload);
      return Response.json({ id: upload.id });
    }
    return graphError(400, 100, "Unsupported request");
  }

  private download(request: Request, id: string): Response {
    this.downloads.push(request.headers.get("authorization") ?? "");
    const m = this.media.get(id);
    if (request.headers.get("authorization") !== `Bearer ${this.token}`) return new Response("", { status: 401 });
    if (!m) return new Response("", { status: 404 });
    return new Response(m.bytes.slice(), { headers: { "content-type": m.mimetype } });
  }
}

function graphError(status: number, code: number, message: string) {
  return Response.json({ error: { message, type: "OAuthException", code } }, { status });
}

/** A webhook body as Meta sends it for one phone number: `messages` and/or `statuses` (with the sender's profile). */
export function notification(
  phoneNumberId: string,
  value: { messages?: object[]; statuses?: object[]; contacts?: object[] },
) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA-1",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "551133334444", phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** X-Hub-Signature-256 of a raw body. */
export function sign(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

/** POSTs a webhook body to the app as Meta would, signed with `appSecret` (or with the signature given). */
export async function postWebhook(
  app: { handle(request: Request): Promise<Response> },
  connectionId: number,
  body: unknown,
  opts: { appSecret?: string; signature?: string | null },
): Promise<Response> {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const signature = opts.signature !== undefined ? opts.signature : sign(raw, opts.appSecret ?? "");
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  return await app.handle(
    new Request(`http://localhost/api/webhooks/whatsapp-cloud/${connectionId}`, { method: "POST", headers, body: raw }),
  );
}
