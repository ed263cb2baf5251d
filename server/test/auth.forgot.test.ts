import { describe, expect, it } from 'vitest';
import {
  expectError,
  ORIGIN,
  SECURITY_ANSWER,
  SECURITY_QUESTION,
  asBearer,
  getMe,
  loginAs,
  signupUser,
  forEachApp,
  loginStatus,
  postQuestion,
  postReset,
} from './helpers.ts';

const NEW_PASSWORD = 'Comet#Tail42';

forEachApp((t) => {
  const askQuestion = (identifier: string) =>
    postQuestion(t.app, { origin: ORIGIN }, { identifier });
  const reset = (payload: { identifier: string; answer: string; newPassword: string }) =>
    postReset(t.app, { origin: ORIGIN }, payload);

  describe('POST /api/auth/forgot-password/question', () => {
    it('answers the security question for a username', async () => {
      const member = await signupUser(t.app);

      const response = await askQuestion(member.username);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ question: SECURITY_QUESTION });
    });

    it('answers the security question for an email typed in another case', async () => {
      const member = await signupUser(t.app);

      const response = await askQuestion(member.email.toUpperCase());

      expect(response.json()).toEqual({ question: SECURITY_QUESTION });
    });

    it('answers 404 for an unknown account', async () => {
      const response = await askQuestion('nobody_at_all');

      expectError(response, 404, 'No account matches that username or email.');
    });

    it('answers 400 "This account has no security question." for an account without one', async () => {
      const member = await signupUser(t.app, { securityQuestion: '', securityAnswer: '' });

      const response = await askQuestion(member.username);

      expectError(response, 400, 'This account has no security question.');
    });
  });

  describe('POST /api/auth/forgot-password/reset', () => {
    it('answers 400 for a wrong answer and keeps the old password', async () => {
      const member = await signupUser(t.app);

      const response = await reset({
        identifier: member.username,
        answer: 'Apollo',
        newPassword: NEW_PASSWORD,
      });

      expectError(response, 400, 'That answer does not match.');
      expect(await loginStatus(t.app, member)).toBe(200);
    });

    it('answers 400 "Password requirements not met" for a right answer with a weak password', async () => {
      const member = await signupUser(t.app);

      const response = await reset({
        identifier: member.username,
        answer: `  ${SECURITY_ANSWER.toUpperCase().replace(' ', '   ')} `,
        newPassword: 'weakpass',
      });

      expectError(response, 400, 'Password requirements not met');
    });

    it('accepts the answer in another case and spacing, and the new password then logs in', async () => {
      const member = await signupUser(t.app);

      const response = await reset({
        identifier: member.email,
        answer: `  ${SECURITY_ANSWER.toLowerCase().replace(' ', '   ')} `,
        newPassword: NEW_PASSWORD,
      });

      expect(response.statusCode).toBe(200);
      expect(await loginStatus(t.app, member, NEW_PASSWORD)).toBe(200);
      expect(await loginStatus(t.app, member)).toBe(401);
    });

    it('revokes every session of the member', async () => {
      const member = await signupUser(t.app);
      const other = await loginAs(t.app, member);

      await reset({
        identifier: member.username,
        answer: SECURITY_ANSWER,
        newPassword: NEW_PASSWORD,
      });

      expect((await getMe(t.app, asBearer(member))).json()).toEqual({ user: null });
      expect((await getMe(t.app, asBearer(other))).json()).toEqual({ user: null });
    });

    it('answers 404 for an unknown account', async () => {
      const response = await reset({
        identifier: 'nobody_at_all',
        answer: 'x',
        newPassword: NEW_PASSWORD,
      });

      expect(response.statusCode).toBe(404);
    });

    it('answers 400 for an account without a security question', async () => {
      const member = await signupUser(t.app, { securityQuestion: '', securityAnswer: '' });

      const response = await reset({
        identifier: member.username,
        answer: '',
        newPassword: NEW_PASSWORD,
      });

      expectError(response, 400, 'This account has no security question.');
    });
  });
});
