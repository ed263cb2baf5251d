import { Notice } from './Notice.tsx';
import { useUpdate } from './update.ts';

/** Offers a new version once its worker is waiting; Reload starts it (see registration.ts). */
export function UpdatePrompt() {
  const available = useUpdate((state) => state.available);
  const activate = useUpdate((state) => state.activate);
  const dismiss = useUpdate((state) => state.dismiss);
  return (
    <div className="notice-region" role="status">
      {available && activate && (
        <Notice
          text="A new version is available"
          action={{ label: 'Reload', onClick: activate }}
          closeLabel="Not now"
          onClose={dismiss}
        />
      )}
    </div>
  );
}
