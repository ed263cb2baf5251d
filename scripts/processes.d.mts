/** Types of processes.mjs, for the TypeScript that imports it (its tests). */

export interface ProcessSpec {
  /** Short label, used in messages and as the output prefix. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export function runTogether(specs: ProcessSpec[], options?: { prefix?: boolean }): void;

export function pushRelay(
  env: NodeJS.ProcessEnv,
  how: {
    command: string;
    args: string[];
    vapidSubjectFallback: typeof import('../push-relay/src/contact.ts').vapidSubjectFallback;
  },
): { serverEnv: NodeJS.ProcessEnv; relay: ProcessSpec | undefined };
