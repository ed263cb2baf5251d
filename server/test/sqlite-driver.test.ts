/** Which SQLite driver runs under which Node, and that both read constraint errors alike. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/index.ts';
import { openSqlite, sqliteDriverFor } from '../src/db/sqlite.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-sqlite-driver-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the SQLite driver', () => {
  it('is better-sqlite3 before Node 24 and node:sqlite from Node 24 on', () => {
    expect(sqliteDriverFor('20.19.0')).toBe('better-sqlite3');
    expect(sqliteDriverFor('22.16.0')).toBe('better-sqlite3');
    expect(sqliteDriverFor('24.0.0')).toBe('node:sqlite');
    expect(sqliteDriverFor('26.1.0')).toBe('node:sqlite');
  });

  it(`on this Node (${process.versions.node}) tells readers from writers and reports a duplicate as a unique violation`, () => {
    const db = openSqlite(path.join(dir, 'unique.db'));
    try {
      expect(db.driver).toBe(sqliteDriverFor());
      db.exec('CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT UNIQUE)');
      const insert = db.prepare('INSERT INTO members (name) VALUES (?)');
      const returning = db.prepare('INSERT INTO members (name) VALUES (?) RETURNING id');
      expect(insert.reader).toBe(false);
      expect(returning.reader).toBe(true);
      expect(Number(insert.run(['vega']).changes)).toBe(1);
      expect(returning.all(['deneb'])).toEqual([{ id: 2 }]);
      expect([...db.prepare('SELECT name FROM members ORDER BY id').iterate([])]).toEqual([
        { name: 'vega' },
        { name: 'deneb' },
      ]);

      let failure: unknown;
      try {
        insert.run(['vega']);
      } catch (error) {
        failure = error;
      }
      expect(isUniqueViolation(failure)).toBe(true);
      expect((failure as Error).message).toContain('UNIQUE constraint failed: members.name');
    } finally {
      db.close();
    }
  });
});
