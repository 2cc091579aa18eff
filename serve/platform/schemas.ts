/** Request and response schemas of the platform routes: validation, types and OpenAPI. */
import { z } from "@hono/zod-openapi";
import { normalizeEmail } from "./email_address.ts";
import { PASSWORD_MAX, PASSWORD_MIN, passwordIsEmail, passwordPolicyProblem } from "./passwords.ts";
import { ENTITLEMENTS } from "./entitlements.ts";
import { FEEDBACK_CATEGORIES } from "./feedback.ts";

// deno-lint-ignore no-control-regex -- control characters are exactly what is refused
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
// deno-lint-ignore no-control-regex -- control characters other than tab and newlines
const TEXT_WITH_NEWLINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** An email address, normalised (see the description for the rule). */
export const Email = z.string().min(3).max(254)
  .transform((value, ctx) => {
    const email = normalizeEmail(value);
    if (email === null) {
      ctx.addIssue({ code: "custom", message: "Must be a valid email address" });
      return z.NEVER;
    }
    return email;
  })
  .openapi({
    type: "string",
    format: "email",
    example: "ada@example.com",
    description: "3-254 characters. Normalised by trimming, Unicode NFC, and lower-casing " +
      "the domain (converted to its ASCII form); the local part keeps its case.",
  });

/** A new password: length bounds, the common-password list and repetition. */
export const NewPassword = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX)
  .superRefine((value, ctx) => {
    const problem = passwordPolicyProblem(value);
    if (problem) {
      ctx.addIssue({
        code: "custom",
        message: `Password ${problem}`,
        params: { type: "password_policy" },
      });
    }
  })
  .openapi({
    description: `${PASSWORD_MIN}-${PASSWORD_MAX} characters, any characters; refused when ` +
      "it is one of the most common passwords, repeats two or fewer distinct characters, " +
      "or equals the email address.",
  });

const Name = (what: string) =>
  z.string().trim().min(1).max(200).regex(NO_CONTROL, "Must not contain control characters")
    .openapi({ description: `${what}, 1-200 characters after trimming.` });

const Token = z.string().min(10).max(4096);

export const RegisterRequest = z.object({
  email: Email,
  password: NewPassword,
  full_name: Name("Full name"),
  company_name: Name("Company name"),
}).superRefine((value, ctx) => {
  if (passwordIsEmail(value.password, value.email)) {
    ctx.addIssue({
      code: "custom",
      path: ["password"],
      message: "Password must not be the email address",
      params: { type: "password_policy" },
    });
  }
}).openapi("RegisterRequest");

export const RegisterResponse = z.object({
  status: z.literal("pending_verification"),
  message: z.string(),
  next_step: z.string(),
}).openapi("RegisterResponse");

export const LoginRequest = z.object({
  email: Email,
  password: z.string().min(1).max(PASSWORD_MAX),
}).openapi("LoginRequest");

export const LoginResponse = z.object({
  access_token: z.string().openapi({ description: "Management token (JWT, HS256)." }),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().openapi({ description: "Seconds; 900 by default." }),
  expires_at: z.string().openapi({ format: "date-time" }),
}).openapi("LoginResponse");

export const VerifyQuery = z.object({
  token: Token.openapi({ description: "The token from the verification link, 10-4096 chars." }),
});

export const VerifyRequest = z.object({ email: Email, token: Token }).openapi(
  "VerifyEmailRequest",
);

export const VerifyResponse = z.union([
  z.object({
    status: z.literal("verified"),
    message: z.string(),
    beta_access: z.literal("activated"),
    next_step: z.string(),
  }),
  z.object({ status: z.enum(["invalid_token", "expired_token"]) }),
]).openapi("VerifyEmailResponse");

export const EmailRequest = z.object({ email: Email }).openapi("EmailRequest");

export const AcceptedResponse = z.object({
  status: z.literal("accepted"),
  message: z.string(),
}).openapi("AcceptedResponse");

export const ResetRequest = z.object({ token: Token, new_password: NewPassword }).openapi(
  "ResetPasswordRequest",
);

export const ResetResponse = z.union([
  z.object({ status: z.literal("password_reset"), message: z.string(), next_step: z.string() }),
  z.object({ status: z.enum(["invalid_token", "expired_token"]) }),
]).openapi("ResetPasswordResponse");

const KeyName = z.string().min(1).max(64)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/,
    "Must start with a letter or digit and hold only letters, digits, spaces, . _ -",
  )
  .refine((v) => !/^\d+$/.test(v), "Must not be all digits (digits name a key id)")
  .openapi({ example: "production", description: "1-64 characters; unique among live keys." });

const EntitlementName = z.enum(ENTITLEMENTS);

export const CreateKeyRequest = z.object({
  name: KeyName,
  entitlements: z.array(EntitlementName).max(ENTITLEMENTS.length).optional().openapi({
    description: "Entitlements for this key; each must be in the current contract. Omitted: " +
      "all of the contract's.",
  }),
}).openapi("CreateApiKeyRequest");

export const KeyRef = z.string().min(1).max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "Must be a key id or a key name")
  .openapi({ description: "The numeric key id (legacy form) or the key name." });

export const RevokeKeyRequest = z.object({
  key_ref: KeyRef.optional(),
  key_id: z.number().int().min(1).optional(),
}).refine((v) => (v.key_ref === undefined) !== (v.key_id === undefined), {
  message: "Give exactly one of key_ref and key_id",
}).openapi("RevokeApiKeyRequest");

export const ApiKey = z.object({
  key_id: z.number().int(),
  name: z.string(),
  prefix: z.string().openapi({ example: "oik_AbCd" }),
  last_four: z.string(),
  status: z.enum(["active", "revoked"]),
  contract_id: z.number().int(),
  entitlements: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
}).openapi("ApiKey");

export const CreatedKey = ApiKey.extend({
  key: z.string().openapi({
    description: "The raw key: shown this once, never again. Format: oik_ + 32 base62 + " +
      "6-character checksum.",
  }),
  message: z.string(),
}).openapi("CreatedApiKey");

export const Contract = z.object({
  contract_id: z.number().int(),
  plan: z.string(),
  status: z.enum(["trial", "active", "expired", "revoked"]),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  rate_per_minute: z.number().int(),
  monthly_quota: z.number().int(),
  concurrency_limit: z.number().int(),
  entitlements: z.array(z.string()),
}).openapi("Contract");

const Window = z.object({
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  window_start: z.string(),
  resets_at: z.string(),
});

export const RateLimitStatus = z.object({
  contract_id: z.number().int(),
  plan: z.string(),
  status: z.enum(["trial", "active", "expired", "revoked"]),
  rate: Window.openapi({ description: "Requests in the current UTC minute." }),
  quota: Window.openapi({ description: "Requests in the current UTC calendar month." }),
  concurrency: z.object({ limit: z.number().int(), in_use: z.number().int() }),
}).openapi("RateLimitStatus");

const RouteUsage = z.object({
  method: z.string(),
  route: z.string(),
  status: z.number().int(),
  requests: z.number().int(),
  avg_duration_ms: z.number(),
});

export const UsagePeriod = z.object({
  period: z.enum(["day", "month"]),
  from: z.string(),
  to: z.string(),
  total_requests: z.number().int(),
  by_route: z.array(RouteUsage),
}).openapi("UsagePeriod");

export const UsageHistory = z.object({
  from: z.string(),
  to: z.string(),
  total_requests: z.number().int(),
  days: z.array(z.object({
    date: z.string(),
    requests: z.number().int(),
    by_route: z.array(RouteUsage),
  })),
}).openapi("UsageHistory");

export const FeedbackRequest = z.object({
  category: z.enum(FEEDBACK_CATEGORIES).default("other").openapi({
    description: "Defaults to `other`, so a message alone is enough.",
  }),
  message: z.string().trim().min(1).max(5000)
    .regex(TEXT_WITH_NEWLINES, "Must not contain control characters other than tab and newlines"),
  rating: z.number().int().min(1).max(5).optional(),
  related_request_id: z.string().regex(/^[A-Za-z0-9._:-]{8,128}$/, "Must be a request id")
    .optional().openapi({ description: "The X-Request-Id of the response this is about." }),
}).openapi("FeedbackRequest");

export const Feedback = z.object({
  feedback_id: z.number().int(),
  category: z.string(),
  message: z.string(),
  rating: z.number().int().nullable(),
  related_request_id: z.string().nullable(),
  created_at: z.string(),
}).openapi("Feedback");

export const FeedbackIdParam = z.object({
  feedback_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
    param: { name: "feedback_id", in: "path" },
    type: "integer",
  }),
});

export const KeyRefParam = z.object({
  key_ref: KeyRef.openapi({ param: { name: "key_ref", in: "path" } }),
});
