import { randomUUID } from 'node:crypto';
import { SUSPENDED_LOGIN } from '../../../../src/contracts/safety.ts';
import type { User } from '../../../../src/contracts/user.ts';
import { DEFAULT_THEME, type Theme } from '../../../../src/contracts/theme.ts';
import {
  MESSAGES,
  type SignupInput,
  displayText,
  emailError,
  interestsError,
  isValidUsername,
  passwordError,
  signupErrors,
  textLengthError,
  usernameError,
} from '../../../../src/contracts/validation.ts';
import { type Db, isUniqueViolation, violatedColumn } from '../../db/index.ts';
import type { UserRow, UserUpdate } from '../../db/schema.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '../../errors.ts';
import { type ImageQueue, avatarFile } from '../../lib/images.ts';
import { storing } from '../../lib/storageErrors.ts';
import { keepFiles, putFiles } from '../../media/files.ts';
import type { Media } from '../../media/index.ts';
import { hashSecret, normaliseAnswer, verifyDecoy, verifySecret } from '../../lib/passwords.ts';
import { hashToken, newReferralCode, newToken } from '../../lib/tokens.ts';
import { visibleMemberByUsername } from '../../members/blocks.ts';
import { userRowToUser } from '../../members/mapping.ts';
import { emailKey, searchKeys, usernameKey } from '../../members/keys.ts';
import { memberById, memberByIdentifier } from '../../members/lookups.ts';
import type { Authenticated, SessionDeps } from '../../members/sessions.ts';
import { type NotificationEvents, drafts, record } from '../notifications/service.ts';
import { type Attempts, memberAccount, namedAccount } from './attempts.ts';
import * as repo from './repository.ts';

export interface AuthDeps extends SessionDeps {
  media: Media;
  /** Announces the welcome notification; without it the notification is only stored. */
  notifications?: NotificationEvents;
}

/** What the calls that check a secret need besides: the per-account count of attempts. */
export interface GuardedDeps extends AuthDeps {
  attempts: Attempts;
}

/** What storing a profile picture needs besides: the queue every picture is made in. */
export interface AvatarDeps extends AuthDeps {
  images: ImageQueue;
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  remember: boolean;
  expiresAt: Date;
}

const AUTH_MESSAGES = {
  badCredentials: 'Wrong username/email or password.',
  usernameTaken: 'Username already taken',
  emailTaken: 'Email already in use',
  noAccount: 'No account matches that username or email.',
  noQuestion: 'This account has no security question.',
  wrongAnswer: 'That answer does not match.',
  wrongCurrentPassword: MESSAGES.wrongCurrentPassword,
  avatarRequired: MESSAGES.profileImageRequired,
} as const;

const clock = (deps: AuthDeps) => (deps.now ? deps.now() : new Date());

/** A unique violation on username or email is the member's conflict; any other is our failure. */
function conflictFrom(error: Error): Error {
  const column = violatedColumn(error);
  if (/email/i.test(column)) return new Conflict(AUTH_MESSAGES.emailTaken);
  if (/username/i.test(column)) return new Conflict(AUTH_MESSAGES.usernameTaken);
  return error;
}

export async function issueSession(
  deps: AuthDeps,
  userId: string,
  remember: boolean,
): Promise<IssuedSession> {
  const token = newToken();
  const now = clock(deps);
  const expiresAt = new Date(
    now.getTime() + (remember ? deps.session.rememberMs : deps.session.ttlMs),
  );
  const sessionId = hashToken(token);
  await repo.insertSession(deps.db, {
    id: sessionId,
    user_id: userId,
    remember: remember ? 1 : 0,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
  });
  return { token, sessionId, remember, expiresAt };
}

/** The member's record changed: sessions remembered with the old one are forgotten on every node. */
async function memberChanged(deps: AuthDeps, userId: string): Promise<void> {
  await deps.sessionMemory?.membersChanged([userId]);
}

async function uniqueReferralCode(db: Db): Promise<string> {
  for (;;) {
    const code = newReferralCode();
    if (!(await repo.isReferralCodeTaken(db, code))) return code;
  }
}

export interface SignupOptions {
  /** A session that outlives the browser ("Remember me"). */
  remember?: boolean;
  /**
   * A demo member of `npm run seed`: never the install's first member, and not counted as one
   * who came before it (docs/decisions.md "Demo members").
   */
  demo?: boolean;
}

/** `profilePic`: the picture's temporary file (or the seed's bytes). */
export async function signup(
  deps: AvatarDeps,
  input: Omit<SignupInput, 'hasProfilePic'>,
  profilePic: string | Buffer | undefined,
  { remember = false, demo = false }: SignupOptions = {},
): Promise<{ user: User; session: IssuedSession }> {
  const first = signupErrors({ ...input, hasProfilePic: profilePic !== undefined }, clock(deps))[0];
  if (first) throw new Invalid(first[1]);
  if (await repo.isUsernameTaken(deps.db, input.username))
    throw new Conflict(AUTH_MESSAGES.usernameTaken);
  if (await repo.isEmailTaken(deps.db, input.email)) throw new Conflict(AUTH_MESSAGES.emailTaken);

  const [passwordHash, answerHash] = await Promise.all([
    hashSecret(input.password),
    input.securityAnswer.trim()
      ? hashSecret(normaliseAnswer(input.securityAnswer))
      : Promise.resolve(''),
  ]);
  // Stored last, so nothing before the insert can leave the picture behind.
  const avatar = await avatarFile(deps.images, profilePic as string | Buffer);
  const began = await storing('could not store a profile picture', () =>
    putFiles(deps.media, [avatar]),
  );
  const now = clock(deps).toISOString();
  const id = randomUUID();
  // Outside the transaction: SQLite has one connection, and the transaction holds it.
  const referralCode = await uniqueReferralCode(deps.db);
  const firstName = displayText(input.firstName).trim();
  const lastName = displayText(input.lastName).trim();
  let welcome: Awaited<ReturnType<typeof record>>;
  try {
    welcome = await deps.db.transaction().execute(async (trx) => {
      await repo.insertUser(trx, {
        id,
        username: input.username.trim(),
        username_key: usernameKey(input.username),
        email: input.email.trim(),
        email_key: emailKey(input.email),
        password_hash: passwordHash,
        first_name: firstName,
        last_name: lastName,
        birthday: input.birthday.trim(),
        profile_image: avatar.key,
        interests: JSON.stringify(input.interests),
        referral: displayText(input.referral).trim(),
        referral_code: referralCode,
        theme: DEFAULT_THEME,
        favorite_quote: displayText(input.favoriteQuote).trim(),
        security_question: displayText(input.securityQuestion).trim(),
        security_answer_hash: answerHash,
        ...searchKeys(input.username.trim(), firstName, lastName),
        is_demo: demo ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      if (!demo) await repo.claimFirstMember(trx, id, now);
      return record(trx, drafts.welcome(id), now);
    });
  } catch (error) {
    await deps.media.discard([avatar.key]);
    if (isUniqueViolation(error)) throw conflictFrom(error);
    throw error;
  }
  await storing('could not store a profile picture again', () =>
    keepFiles(deps.media, [avatar], began),
  );
  if (deps.notifications)
    await welcome({ db: deps.db, events: deps.notifications, mediaUrl: deps.media.url });
  const row = await memberById(deps.db, id);
  if (!row) throw new Error('signup: the new member could not be read back');
  return {
    user: userRowToUser(row, deps.media.url),
    session: await issueSession(deps, id, remember),
  };
}

export async function login(
  deps: GuardedDeps,
  identifier: string,
  password: string,
  remember: boolean,
): Promise<{ user: User; session: IssuedSession }> {
  if (!identifier.trim() || !password) throw new Invalid(MESSAGES.loginRequired);
  const row = await memberByIdentifier(deps.db, identifier);
  // docs/decisions.md "Passwords and abuse": an unknown name backs off exactly like a real one.
  const right = await deps.attempts.check('login', namedAccount(row?.id, identifier), async () => {
    if (row) return verifySecret(row.password_hash, password);
    await verifyDecoy(password);
    return false;
  });
  if (!row || !right) throw new Unauthorized(AUTH_MESSAGES.badCredentials);
  // Told only to whoever knows the password (docs/product.md "Moderation").
  if (row.suspended_at !== null) throw new Forbidden(SUSPENDED_LOGIN(row.suspension_reason));
  return {
    user: userRowToUser(row, deps.media.url),
    session: await issueSession(deps, row.id, remember),
  };
}

export async function logout(deps: AuthDeps, sessionId: string): Promise<void> {
  await repo.deleteSession(deps.db, sessionId);
  await deps.sessionMemory?.sessionsEnded([sessionId]);
}

/** Signup form check: `{available}` only (docs/product.md "Session and API calls"). */
export async function isUsernameAvailable(deps: AuthDeps, username: string): Promise<boolean> {
  if (usernameError(username)) return false;
  return !(await repo.isUsernameTaken(deps.db, username));
}

export type UsernameReason = 'invalid' | 'taken' | 'current' | null;

/** Settings check: one's own current name counts as available. */
export async function checkUsernameFor(
  deps: AuthDeps,
  user: UserRow,
  username: string,
): Promise<{ available: boolean; reason: UsernameReason }> {
  const value = username.trim();
  if (!isValidUsername(value)) return { available: false, reason: 'invalid' };
  if (usernameKey(value) === user.username_key) return { available: true, reason: 'current' };
  const taken = await repo.isUsernameTaken(deps.db, value, user.id);
  return { available: !taken, reason: taken ? 'taken' : null };
}

export interface ProfilePatch {
  firstName?: string | undefined;
  lastName?: string | undefined;
  username?: string | undefined;
  email?: string | undefined;
  referral?: string | undefined;
  favoriteQuote?: string | undefined;
  interests?: string[] | undefined;
  securityQuestion?: string | undefined;
  securityAnswer?: string | undefined;
  theme?: Theme | undefined;
  /** Needed when the patch changes the email or the security question or answer. */
  currentPassword?: string | undefined;
}

/** Whether a patch changes what takes the account over: the email, the security question or answer. */
function needsCurrentPassword(user: UserRow, patch: ProfilePatch): boolean {
  return (
    (patch.email !== undefined && patch.email.trim() !== user.email) ||
    (patch.securityQuestion !== undefined &&
      patch.securityQuestion.trim() !== user.security_question) ||
    patch.securityAnswer !== undefined
  );
}

/**
 * docs/decisions.md "Re-authentication": the member's current password, counted per member
 * (docs/decisions.md "Passwords and abuse"), before a change that could take the account over.
 */
export async function confirmCurrentPassword(
  deps: GuardedDeps,
  user: UserRow,
  currentPassword: string | undefined,
): Promise<void> {
  if (!currentPassword) throw new Invalid(MESSAGES.currentPasswordRequired);
  const right = await deps.attempts.check('currentPassword', memberAccount(user.id), () =>
    verifySecret(user.password_hash, currentPassword),
  );
  if (!right) throw new Invalid(AUTH_MESSAGES.wrongCurrentPassword);
}

/** `profilePic`: the new picture's temporary file, when one came. */
export async function updateProfile(
  deps: GuardedDeps & AvatarDeps,
  user: UserRow,
  patch: ProfilePatch,
  profilePic?: string,
): Promise<User> {
  if (needsCurrentPassword(user, patch))
    await confirmCurrentPassword(deps, user, patch.currentPassword);
  const update: UserUpdate = {};
  if (patch.username !== undefined) {
    const username = patch.username.trim();
    if (!isValidUsername(username)) throw new Invalid(MESSAGES.usernameRule);
    if (await repo.isUsernameTaken(deps.db, username, user.id))
      throw new Conflict(AUTH_MESSAGES.usernameTaken);
    update.username = username;
    update.username_key = usernameKey(username);
  }
  if (patch.email !== undefined) {
    const message = emailError(patch.email);
    if (message) throw new Invalid(message);
    if (await repo.isEmailTaken(deps.db, patch.email, user.id))
      throw new Conflict(AUTH_MESSAGES.emailTaken);
    update.email = patch.email.trim();
    update.email_key = emailKey(patch.email);
  }
  const texts = [
    ['firstName', 'first_name'],
    ['lastName', 'last_name'],
    ['referral', 'referral'],
    ['favoriteQuote', 'favorite_quote'],
    ['securityQuestion', 'security_question'],
  ] as const;
  for (const [field, column] of texts) {
    const value = patch[field];
    if (value === undefined) continue;
    // Stored without hidden characters (docs/decisions.md "Display text without hidden characters").
    const text = displayText(value).trim();
    const message = textLengthError(field, text);
    if (message) throw new Invalid(message);
    update[column] = text;
  }
  if (patch.securityAnswer !== undefined) {
    const message = textLengthError('securityAnswer', patch.securityAnswer);
    if (message) throw new Invalid(message);
    update.security_answer_hash = patch.securityAnswer.trim()
      ? await hashSecret(normaliseAnswer(patch.securityAnswer))
      : '';
  }
  if (patch.interests !== undefined) {
    const message = interestsError(patch.interests);
    if (message) throw new Invalid(message);
    update.interests = JSON.stringify(patch.interests);
  }
  if (patch.theme !== undefined) update.theme = patch.theme;
  if (
    update.username !== undefined ||
    update.first_name !== undefined ||
    update.last_name !== undefined
  ) {
    Object.assign(
      update,
      searchKeys(
        update.username ?? user.username,
        update.first_name ?? user.first_name,
        update.last_name ?? user.last_name,
      ),
    );
  }

  const previousAvatar = user.profile_image;
  const avatar = profilePic ? await avatarFile(deps.images, profilePic) : undefined;
  let began = 0;
  if (avatar) {
    began = await storing('could not store a profile picture', () =>
      putFiles(deps.media, [avatar]),
    );
    update.profile_image = avatar.key;
    update.avatar_version = user.avatar_version + 1;
  }
  update.updated_at = clock(deps).toISOString();
  let row: UserRow | undefined;
  try {
    row = await repo.updateUser(deps.db, user.id, update);
  } catch (error) {
    if (avatar) await deps.media.discard([avatar.key]);
    if (isUniqueViolation(error)) throw conflictFrom(error);
    throw error;
  }
  await memberChanged(deps, user.id);
  if (!row) {
    if (avatar) await deps.media.discard([avatar.key]);
    throw new NotFound();
  }
  if (avatar) {
    await storing('could not store a profile picture again', () =>
      keepFiles(deps.media, [avatar], began),
    );
    if (previousAvatar) await deps.media.discard([previousAvatar]);
  }
  return userRowToUser(row, deps.media.url);
}

export async function setTheme(deps: AuthDeps, user: UserRow, theme: Theme): Promise<Theme> {
  await repo.updateUser(deps.db, user.id, { theme, updated_at: clock(deps).toISOString() });
  await memberChanged(deps, user.id);
  return theme;
}

/** Changes the password and revokes every other session; answers the revoked session ids. */
export async function changePassword(
  deps: GuardedDeps,
  auth: Authenticated,
  currentPassword: string,
  newPassword: string,
): Promise<string[]> {
  if (!currentPassword) throw new Invalid(MESSAGES.currentPasswordRequired);
  if (!newPassword) throw new Invalid(MESSAGES.newPasswordRequired);
  const policy = passwordError(newPassword);
  if (policy) throw new Invalid(policy);
  await confirmCurrentPassword(deps, auth.user, currentPassword);
  return setPassword(deps, auth.user.id, newPassword, auth.sessionId);
}

/**
 * Stores a new password and deletes the member's sessions but `keep`; answers the ids deleted.
 * Every node forgets every session of the member, the one kept too: the record it remembers
 * holds the old password.
 */
async function setPassword(
  deps: GuardedDeps,
  userId: string,
  newPassword: string,
  keep: string | null,
): Promise<string[]> {
  await repo.updateUser(deps.db, userId, {
    password_hash: await hashSecret(newPassword),
    updated_at: clock(deps).toISOString(),
  });
  const revoked = await repo.deleteOtherSessions(deps.db, userId, keep);
  await memberChanged(deps, userId);
  return revoked;
}

/**
 * Deletes every session of a member, with the caller's database handle (a suspension passes its
 * transaction); answers their ids. Once it has committed, call `membersChanged` so every node
 * forgets them, and disconnect their sockets.
 */
export function endAllSessions(db: Db, userId: string): Promise<string[]> {
  return repo.deleteOtherSessions(db, userId, null);
}

/** Step one of the forgotten-password flow: the account's security question. */
export async function securityQuestionFor(deps: AuthDeps, identifier: string): Promise<string> {
  if (!identifier.trim()) throw new Invalid('Enter your username or email.');
  const row = await memberByIdentifier(deps.db, identifier);
  if (!row) throw new NotFound(AUTH_MESSAGES.noAccount);
  if (!row.security_question || !row.security_answer_hash)
    throw new Invalid(AUTH_MESSAGES.noQuestion);
  return row.security_question;
}

/** Step two: a right answer sets the new password and revokes every session; answers their ids. */
export async function resetPassword(
  deps: GuardedDeps,
  identifier: string,
  answer: string,
  newPassword: string,
): Promise<string[]> {
  await securityQuestionFor(deps, identifier);
  const row = await memberByIdentifier(deps.db, identifier);
  if (!row) throw new NotFound(AUTH_MESSAGES.noAccount);
  if (!answer.trim()) throw new Invalid('Enter your answer.');
  const policy = passwordError(newPassword);
  if (policy) throw new Invalid(policy);
  // Its own count per account, apart from the address's (docs/decisions.md "Passwords and abuse").
  const right = await deps.attempts.check('securityAnswer', memberAccount(row.id), () =>
    verifySecret(row.security_answer_hash, normaliseAnswer(answer)),
  );
  if (!right) throw new Invalid(AUTH_MESSAGES.wrongAnswer);
  const revoked = await setPassword(deps, row.id, newPassword, null);
  // The member chose the new password: a login backoff from before ends with it.
  await deps.attempts.forget('login', memberAccount(row.id));
  return revoked;
}

/** A member's profile as `viewerId` may see it: one blocked either way is absent (docs/product.md "Blocking"). */
export async function publicProfile(
  deps: AuthDeps,
  username: string,
  viewerId: string,
): Promise<UserRow> {
  const row = await visibleMemberByUsername(deps.db, viewerId, username);
  if (!row) throw new NotFound('No member with that username.');
  return row;
}
