import { t } from "elysia";

export namespace MediaModel {
  /** The access token, for <img>/<audio>/<video> sources that can't carry a header. */
  export const query = t.Object({ token: t.Optional(t.String({ maxLength: 4096 })) });
}
