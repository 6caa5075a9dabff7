const error = {
  type: "object",
  properties: {
    error: { type: "string", example: "ERR_WAPP_INVALID_CONTACT" },
    field: { type: "string", description: "With VALIDATION: the field that failed." },
    rule: { type: "string", description: "With VALIDATION: the rule it failed, e.g. required or max.", example: "max" },
    message: {
      type: "string",
      description: "With VALIDATION: the rule's message, for clients that show it as is.",
      example: "Too Long!",
    },
  },
};
const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: error } } });

const fields = {
  number: {
    type: "string",
    description: "The phone number with its country code; every non-digit is dropped.",
    example: "5511999999999",
  },
  body: { type: "string", maxLength: 65536, description: "The text, or the first file's caption." },
  whatsappId: { type: "integer", description: "The connection to send on; the default connection when absent." },
  closeTicket: { type: "boolean", description: "Close the ticket once the message is sent (no farewell message)." },
  template: {
    type: "object",
    description:
      "WhatsApp Cloud API connections: an approved template sent instead of the text when the customer has not written in 24 hours (without it such a send fails with ERR_OUTSIDE_24H_WINDOW). In multipart requests, its JSON as text.",
    required: ["name", "language", "parameters"],
    properties: {
      name: { type: "string", example: "order_update" },
      language: { type: "string", example: "pt_BR" },
      parameters: { type: "array", items: { type: "string" }, description: "The body placeholders' values, in order." },
      header: {
        type: "string",
        description: "The header's value: its placeholder's text, or the link of its image, video or document.",
      },
      buttons: {
        type: "array",
        items: { type: "string" },
        description: "The value of each URL button's placeholder, in the buttons' order.",
      },
    },
  },
};

/** OpenAPI 3.1 description of the external API, served at GET /api/docs. */
export const OPENAPI_DOCUMENT = {
  openapi: "3.1.0",
  info: {
    title: "Zapdesk external API",
    version: "1.0.0",
    description: "Send WhatsApp messages from other systems. The token is the API token shown in Settings.",
  },
  servers: [{ url: "/api" }],
  components: {
    securitySchemes: { apiToken: { type: "http", scheme: "bearer", description: "The API token from Settings." } },
  },
  security: [{ apiToken: [] }],
  paths: {
    "/messages/send": {
      post: {
        summary: "Send a text or files to a number",
        description:
          "The number must exist on WhatsApp. Its contact and ticket are found or created as for an incoming message; the message is stored in the ticket and sent when the connection is connected. Each token may send 20 requests in a burst, then one per second.",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["number", "body"],
                properties: {
                  ...fields,
                  quotedMsg: {
                    type: "object",
                    properties: { id: { type: "integer", description: "A message of the same contact to quote." } },
                  },
                },
              },
            },
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["number"],
                properties: {
                  ...fields,
                  medias: { type: "array", maxItems: 10, items: { type: "string", format: "binary" } },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "Stored and handed to the connection.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    ticketId: { type: "integer" },
                    messageId: { type: "integer" },
                    messageIds: { type: "array", items: { type: "integer" } },
                  },
                },
              },
            },
          },
          "400": errorResponse(
            "ERR_INVALID_NUMBER, ERR_WAPP_INVALID_CONTACT, ERR_WAPP_CHECK_CONTACT, ERR_WAPP_NOT_INITIALIZED, ERR_NO_WAPP_FOUND, ERR_NO_DEF_WAPP_FOUND, ERR_INVALID_BODY, or VALIDATION with the field and rule (a body that is empty without files, or too long).",
          ),
          "401": errorResponse("ERR_SESSION_EXPIRED (no token) or ERR_INVALID_API_TOKEN."),
          "413": errorResponse("ERR_PAYLOAD_TOO_LARGE or ERR_MEDIA_TOO_LARGE."),
          "429": errorResponse("ERR_TOO_MANY_ATTEMPTS: this token sent too many requests."),
        },
      },
    },
  },
} as const;
