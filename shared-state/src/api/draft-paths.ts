/**
 * TEMPORARY hand-written OpenAPI `paths` for the accounts endpoints, shaped
 * like openapi-typescript output. Replaced by the generated `schema.d.ts`
 * (`npm run gen:api -w server`) as soon as the server emits it.
 */

interface Json<T> {
  content: { 'application/json': T };
}
interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}
interface Errors {
  400: Json<ErrorBody>;
  401: Json<ErrorBody>;
  403: Json<ErrorBody>;
  404: Json<ErrorBody>;
  409: Json<ErrorBody>;
  429: Json<ErrorBody>;
  500: Json<ErrorBody>;
  503: Json<ErrorBody>;
}
interface NoContent {
  headers: Record<string, unknown>;
  content?: never;
}
interface Params {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}
interface PathParams<P> {
  query?: never;
  header?: never;
  path: P;
  cookie?: never;
}
type Post<Body, Ok> = {
  parameters: Params;
  requestBody: Json<Body>;
  responses: Ok & Errors;
};
type Get<Ok> = { parameters: Params; requestBody?: never; responses: Ok & Errors };

interface MeBody {
  id: string;
  username: string;
  nickname: string | null;
  email: string;
  emailMasked: string;
  country: string;
  hasFundPassword: boolean;
  createdAt: string;
}
interface SessionBody {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}
type CodePurpose = 'register' | 'reset_password' | 'change_password' | 'fund_password' | 'withdraw';

export interface components {
  schemas: { Me: MeBody; Session: SessionBody; Error: ErrorBody };
}

export interface paths {
  '/api/auth/codes': {
    post: Post<
      { email: string; purpose: CodePurpose },
      { 202: Json<{ resendAfterSeconds: number; expiresInSeconds: number }> }
    >;
  };
  '/api/auth/register': {
    post: Post<
      {
        username: string;
        nickname?: string;
        country: string;
        password: string;
        confirmPassword: string;
        email: string;
        code: string;
        agreementAccepted: true;
      },
      { 201: Json<{ user: MeBody }> }
    >;
  };
  '/api/auth/login': { post: Post<{ identifier: string; password: string }, { 200: Json<{ user: MeBody }> }> };
  '/api/auth/logout': { post: { parameters: Params; requestBody?: never; responses: { 204: NoContent } & Errors } };
  '/api/auth/password/reset': {
    post: Post<{ email: string; code: string; password: string; confirmPassword: string }, { 204: NoContent }>;
  };
  '/api/me': { get: Get<{ 200: Json<MeBody> }> };
  '/api/me/password': {
    post: Post<{ oldPassword: string; password: string; confirmPassword: string }, { 204: NoContent }>;
  };
  '/api/me/fund-password': {
    post: Post<{ code: string; fundPassword: string; confirmFundPassword: string }, { 204: NoContent }>;
  };
  '/api/me/fund-password/verify': { post: Post<{ fundPassword: string }, { 204: NoContent }> };
  '/api/me/sessions': { get: Get<{ 200: Json<{ sessions: SessionBody[] }> }> };
  '/api/me/sessions/revoke-others': {
    post: { parameters: Params; requestBody?: never; responses: { 200: Json<{ revoked: number }> } & Errors };
  };
  '/api/me/sessions/{id}': {
    delete: { parameters: PathParams<{ id: string }>; requestBody?: never; responses: { 204: NoContent } & Errors };
  };
}
