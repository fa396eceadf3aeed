import { z } from 'zod';

/** A link in an e-mail: http(s) only (never javascript: or data:). */
export const httpLink = z.url({ protocol: /^https?$/ });
