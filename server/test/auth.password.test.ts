import type { AddressInfo } from 'node:net';
import { type Socket, io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Member,
  asBearer,
  asCookie,
  getMe,
  loginAs,
  postLogin,
  signupUser,
  forEachApp,
  loginStatus,
} from './helpers.ts';

const NEW_PASSWORD = 'Nebula#2025x';

forEachApp((t) => {
  const changePassword = (member: Member, payload: Record<string, string>) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/auth/password',
      headers: asCookie(member),
      payload,
    });

  describe('PATCH /api/auth/password', () => {
    it('answers 400 when the current password is wrong', async () => {
      const member = await signupUser(t.app);

      const response = await changePassword(member, {
        currentPassword: 'Wrong#Pass1',
        newPassword: NEW_PASSWORD,
      });

      expectError(response, 400, 'Your current password is not correct.');
      expect(await loginStatus(t.app, member)).toBe(200);
    });

    it.each([
      {
        when: 'the current password is missing',
        payload: { newPassword: NEW_PASSWORD },
        message: 'Enter your current password.',
      },
      {
        when: 'the new password is missing',
        payload: { currentPassword: 'x' },
        message: 'Enter a new password.',
      },
    ])('answers 400 "$message" when $when', async ({ payload, message }) => {
      const member = await signupUser(t.app);

      const response = await changePassword(member, payload);

      expectError(response, 400, message);
    });

    it('answers 400 "Password requirements not met" for a weak new password', async () => {
      const member = await signupUser(t.app);

      const response = await changePassword(member, {
        currentPassword: member.password,
        newPassword: 'weakpass',
      });

      expectError(response, 400, 'Password requirements not met');
    });

    it('revokes the member’s other sessions and keeps the current one', async () => {
      const member = await signupUser(t.app);
      const other = await loginAs(t.app, member);

      const response = await changePassword(member, {
        currentPassword: member.password,
        newPassword: NEW_PASSWORD,
      });

      expect(response.statusCode).toBe(200);
      expect((await getMe(t.app, asBearer(other))).json()).toEqual({ user: null });
      expect((await getMe(t.app, { cookie: member.cookie })).statusCode).toBe(200);
    });

    it('makes the new password work for login and the old one fail', async () => {
      const member = await signupUser(t.app);

      await changePassword(member, { currentPassword: member.password, newPassword: NEW_PASSWORD });

      const withNew = await postLogin(t.app, {
        identifier: member.username,
        password: NEW_PASSWORD,
      });
      const withOld = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });
      expect(withNew.statusCode).toBe(200);
      expect(withOld.statusCode).toBe(401);
    });
  });

  describe('sockets after a password change', () => {
    const sockets: Socket[] = [];
    afterAll(() => {
      for (const socket of sockets) socket.disconnect();
    });

    async function connect(member: Member): Promise<Socket> {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const socket = io(`http://127.0.0.1:${port}`, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { cookie: member.cookie },
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      return socket;
    }

    it('disconnects a socket opened with another session of the member', async () => {
      const member = await signupUser(t.app);
      const current = await connect(member);
      const elsewhere = await connect(await loginAs(t.app, member));
      const disconnected = new Promise<string>((resolve) => elsewhere.once('disconnect', resolve));

      await changePassword(member, { currentPassword: member.password, newPassword: NEW_PASSWORD });

      expect(await disconnected).toBe('io server disconnect');
      expect(current.connected).toBe(true);
    });

    it('refuses a socket whose session was revoked', async () => {
      const member = await signupUser(t.app);
      const other = await loginAs(t.app, member);
      await changePassword(member, { currentPassword: member.password, newPassword: NEW_PASSWORD });

      await expect(connect(other)).rejects.toThrow('unauthorized');
    });
  });
});
