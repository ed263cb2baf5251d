import { useEffect, useMemo } from 'react';

/** A short-lived address for a file the member picked, to preview it; released when it changes or unmounts. */
export function useObjectUrl(file: Blob | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
