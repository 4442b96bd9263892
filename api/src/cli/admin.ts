/**
 * `npm run admin -- <command>`: the admin actions from a shell, against DATABASE_URL.
 *
 *   list                   the admins granted here (ADMIN_EMAILS admins come from the config)
 *   grant <email>          make a user an admin
 *   revoke <email>         take it back
 *   show <email>           an account's status and the admin actions on it
 *   disable <email>        docs/product.md §4: the first tenant becomes inactive (the account can only sign out)
 *   enable <email>         active again
 *
 * Each action is stored with who did it (`cli:<os user>`, or `--as <name>`) and logged.
 */
import { createLogger } from '@sparks/core';
import { AccountsRepository, AdminRepository, createDb } from '@sparks/db';
import os from 'node:os';

const USAGE = `usage: npm run admin -- <list | grant <email> | revoke <email> | show <email> | disable <email> | enable <email>> [--as <name>]`;

export interface CliResult {
  code: number;
  out: string[];
}

export async function runAdminCli(argv: string[], databaseUrl: string): Promise<CliResult> {
  const args = [...argv];
  let actorName = os.userInfo().username;
  const asAt = args.indexOf('--as');
  if (asAt >= 0) {
    actorName = args[asAt + 1] ?? '';
    args.splice(asAt, 2);
  }
  const [command, email] = args;
  const out: string[] = [];
  if (!command || !actorName || (command !== 'list' && !email)) return { code: 2, out: [USAGE] };
  const actor = `cli:${actorName}`;
  const log = createLogger('admin-cli', process.env.LOG_LEVEL ?? 'info');
  const handle = createDb(databaseUrl, 1);
  try {
    const accounts = new AccountsRepository(handle.db);
    const admin = new AdminRepository(handle.db);
    if (command === 'list') {
      const rows = await admin.grantedAdmins();
      if (rows.length === 0) out.push('No admins granted here (ADMIN_EMAILS may name more).');
      for (const r of rows) out.push(`${r.username}\tgranted by ${r.grantedBy} on ${r.createdAt.toISOString()}`);
      return { code: 0, out };
    }
    const user = await accounts.findUserByUsername(email.trim().toLowerCase());
    if (!user) return { code: 1, out: [`No user ${email}.`] };
    switch (command) {
      case 'grant':
      case 'revoke': {
        const changed = await admin.setGrantedAdmin(user.id, command === 'grant', actor);
        if (changed) log.info({ actor, action: command, user: user.username }, `admin ${command}ed`);
        out.push(
          changed
            ? `${user.username} ${command === 'grant' ? 'is now an admin' : 'is no longer an admin'}.`
            : `${user.username} ${command === 'grant' ? 'was already an admin' : 'was not a granted admin'}.`,
        );
        return { code: 0, out };
      }
      case 'disable':
      case 'enable': {
        const status = command === 'disable' ? 'inactive' : 'active';
        if (!(await admin.setAccountStatus(user.id, status, actor)))
          return { code: 1, out: [`${user.username} has no tenant.`] };
        log.info({ actor, action: command, user: user.username }, `account ${command}d`);
        out.push(`${user.username} is ${command}d.`);
        return { code: 0, out };
      }
      case 'show': {
        const account = await admin.findAccount(user.username);
        out.push(`${user.username}\t${account?.status}${account?.grantedAdmin ? '\tadmin (granted)' : ''}`);
        for (const a of await admin.audit({ userId: user.id, limit: 20 })) {
          out.push(`${a.createdAt.toISOString()}\t${a.action}\tby ${a.actor}`);
        }
        return { code: 0, out };
      }
      default:
        return { code: 2, out: [USAGE] };
    }
  } finally {
    await handle.close();
  }
}

if (require.main === module) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set: point it at the database the api uses.');
    process.exit(2);
  }
  runAdminCli(process.argv.slice(2), url).then(
    ({ code, out }) => {
      for (const line of out) (code === 0 ? console.log : console.error)(line);
      process.exit(code);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
