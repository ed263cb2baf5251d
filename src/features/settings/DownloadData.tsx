import { useState } from 'react';
import { EXPORT_TOO_SOON } from '../../contracts/safety.ts';
import { OFFLINE_REASON, OFFLINE_REASON_ID, useOffline } from '../offline/store.ts';
import { EXPORT_URL } from './api.ts';
import { exportedRecently, noteExportStarted } from './leaving.ts';

/**
 * Settings → Download my data (docs/product.md "Leaving"): a link the browser saves as
 * `orbit-{username}.zip` while the server builds it. One download per 10 minutes: a second one
 * from this browser is refused here in the server's words instead of as a failed download.
 */
export function DownloadData({ userId, username }: { userId: string; username: string }) {
  const [tooSoon, setTooSoon] = useState(false);
  const offline = useOffline();
  return (
    <>
      <p className="settings-note">
        A zip file of everything Orbit holds about you: your profile, friends and requests,
        notifications, reactions given and received, reports you made and members you blocked, as
        JSON; every photo at display size, numbered in gallery order with an index of folders and
        captions, and your avatar; and a README.txt explaining the files. It is built as it
        downloads, so it may take a while. You can download it once every 10 minutes.
      </p>
      {tooSoon && (
        <p className="form-error" role="alert">
          {EXPORT_TOO_SOON}
        </p>
      )}
      <div className="settings-actions">
        <a
          className="button primary"
          href={EXPORT_URL}
          download={`orbit-${username}.zip`}
          {...(offline
            ? {
                'aria-disabled': true,
                title: OFFLINE_REASON,
                'aria-describedby': OFFLINE_REASON_ID,
              }
            : {})}
          onClick={(event) => {
            if (offline || exportedRecently(userId)) {
              event.preventDefault();
              setTooSoon(!offline);
              return;
            }
            setTooSoon(false);
            noteExportStarted(userId);
          }}
        >
          Download my data
        </a>
      </div>
    </>
  );
}
