import { hash, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1): OWASP's recommended minimum.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    // Same work for unknown accounts, so timing does not reveal which e-mails exist.
    await hash(password);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
