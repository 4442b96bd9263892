import { z } from 'zod';

/** An account as the admin page shows it. */
export const adminAccountSchema = z.object({
  _id: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  createdAt: z.string(),
  /** The first tenant's status: `inactive` is a disabled account (docs/product.md §4). */
  status: z.enum(['active', 'inactive']),
  /** An admin: listed in ADMIN_EMAILS or granted with `npm run admin -- grant`. */
  admin: z.boolean(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;

/** One admin action and who did it (an admin's e-mail, `cli:<os user>`, `self`). */
export const adminAuditEntrySchema = z.object({
  _id: z.string(),
  actor: z.string(),
  action: z.enum(['disable', 'enable', 'grant', 'revoke']),
  targetUserId: z.string().nullable(),
  targetUsername: z.string(),
  createdAt: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAccountViewSchema = z.object({ account: adminAccountSchema, audit: z.array(adminAuditEntrySchema) });
export type AdminAccountView = z.infer<typeof adminAccountViewSchema>;

/** The admin pages' session (Bull Board): an httpOnly cookie, valid until `expiresAt`. */
export const adminSessionSchema = z.object({ expiresAt: z.string() });
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** GET /admin/me: whether the caller is an admin (every signed-in user may ask about themselves). */
export const adminMeSchema = z.union([
  z.object({ admin: z.literal(true), username: z.string() }),
  z.object({ admin: z.literal(false) }),
]);
export type AdminMe = z.infer<typeof adminMeSchema>;
/** DELETE /admin/session. */
export const adminSessionClosedSchema = z.object({ closed: z.literal(true) });

export const adminUserQuery = z.object({ email: z.string().trim().min(1).max(320) });
export const adminUserParams = z.object({ userId: z.uuid() });
export type AdminUserParams = z.output<typeof adminUserParams>;
