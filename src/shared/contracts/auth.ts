import type { UserDto } from "./users";

/** POST /auth/login. */
export interface LoginCredentials {
  email: string;
  password: string;
}

/** POST /auth/signup: an agent's own account, while sign-up is open. */
export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

/** What login and a token refresh answer: an access token and whose it is (the refresh token is a cookie). */
export interface SessionDto {
  token: string;
  user: UserDto;
}
