/**
 * zod as every contract uses it. Without the just-in-time parsers: they probe with
 * `new Function`, which the page's Content-Security-Policy forbids and reports even when the
 * probe's failure is caught (docs/architecture.md "Server plugins and HTTP contracts").
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
