/**
 * A user without root's powers, for tests where file permissions must matter: as root, a folder of
 * mode 000 is read like any other, so a test run as root that "locks" a folder proves nothing. CI
 * runs as root: such a test runs its subject as this user instead (spawn with `uid`/`gid`).
 *
 * Under root, a throwaway system user is created when missing (useradd). Not root: the current
 * user already is unprivileged. Either way the user is checked — a child runs under it and must fail
 * to list a folder of mode 000 — and anything that does not hold throws: the test fails loudly
 * instead of passing without proving anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Unprivileged {
  name: string;
  uid: number;
  gid: number;
}

const NAME = 'drive-sync-test';

function idOf(name: string): Unprivileged | null {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

let checked: Unprivileged | null = null;

export function unprivilegedUser(): Unprivileged {
  if (checked) return checked;
  const self = process.getuid?.();
  if (self === undefined) throw new Error('unprivileged user: no POSIX user ids on this platform');
  let user: Unprivileged | null;
  if (self !== 0) {
    user = { name: os.userInfo().username, uid: self, gid: process.getgid!() };
  } else {
    user = idOf(NAME);
    if (!user) {
      try {
        execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'pipe' });
      } catch (error) {
        throw new Error(`cannot create the unprivileged test user ${NAME} (useradd): ${(error as Error).message}`);
      }
      user = idOf(NAME);
      if (!user) throw new Error(`useradd ${NAME} succeeded but the user is not there`);
    }
    if (user.uid === 0) throw new Error(`${NAME} has uid 0`);
  }
  // The proof: a folder of mode 000, owned by that user, cannot be listed by a child running as it.
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'unprivileged-probe-'));
  try {
    const locked = path.join(probe, 'locked');
    fs.mkdirSync(locked);
    fs.writeFileSync(path.join(locked, 'x'), 'x');
    fs.chownSync(probe, user.uid, user.gid);
    fs.chownSync(locked, user.uid, user.gid);
    fs.chmodSync(locked, 0o000);
    const child = spawnSync(process.execPath, ['-e', `const fs=require('fs');try{fs.readdirSync(${JSON.stringify(locked)});console.log('read')}catch(e){console.log(e.code)};console.log(process.getuid())`], {
      uid: user.uid,
      gid: user.gid,
      encoding: 'utf8',
    });
    const [outcome, uid] = child.stdout.trim().split('\n');
    if (child.status !== 0 || uid !== String(user.uid)) throw new Error(`cannot run a child as ${user.name} (uid ${user.uid}): ${child.stderr || child.stdout}`);
    if (outcome !== 'EACCES') throw new Error(`running as ${user.name}, a folder of mode 000 was not refused (${outcome}): permissions would prove nothing`);
  } finally {
    fs.chmodSync(path.join(probe, 'locked'), 0o700);
    fs.rmSync(probe, { recursive: true, force: true });
  }
  checked = user;
  return user;
}

/** Gives a tree to the user (chown -R), so a child running as it can read and write there. */
export function giveTo(user: Unprivileged, dir: string): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) fs.lchownSync(path.join(dir, name), user.uid, user.gid);
}
