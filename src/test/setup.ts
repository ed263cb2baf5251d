import { configure } from '@testing-library/react';

// A busy machine (CI runs the suites side by side) can take more than the default second to
// settle a dialog's promise chain; a real failure still fails, only later.
configure({ asyncUtilTimeout: 5_000 });
