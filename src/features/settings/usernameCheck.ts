/** The words beside the settings username (docs/product.md "Validation rules"). */
import type { UsernameAvailability } from '../auth/useUsernameAvailability.ts';

export const AVAILABILITY_TEXT: Record<UsernameAvailability, string> = {
  idle: '',
  current: 'Current username',
  checking: 'Checking…',
  available: 'Available ✓',
  taken: 'Taken ✕',
  unknown: '',
};
