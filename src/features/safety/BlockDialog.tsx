import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { useSession } from '../auth/store.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import type { ArrivalState } from '../profile/useArrivalToast.ts';
import { safetyApi, safetyErrorText } from './api.ts';
import './safety.css';

const BLOCK_FAILED = 'Could not block. Please try again.';

export interface Member {
  id: string;
  username: string;
}

/** `Block @{username}?` (docs/product.md "Blocking"): blocks, then goes to one's own profile. */
export function BlockDialog({
  open,
  member,
  onClose,
}: {
  open: boolean;
  member: Member;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} title={`Block @${member.username}?`} onClose={onClose}>
      <BlockConfirm member={member} onCancel={onClose} />
    </Dialog>
  );
}

/** The dialog's body, mounted while it is open, so each opening starts afresh. */
function BlockConfirm({ member, onCancel }: { member: Member; onCancel: () => void }) {
  const navigate = useNavigate();
  const me = useSession((state) => state.user?.username);
  const needsNetwork = useNeedsNetwork();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const block = async () => {
    setBusy(true);
    setError(null);
    try {
      await safetyApi.blockMember(member.id);
    } catch (failure) {
      setError(safetyErrorText(failure, BLOCK_FAILED));
      setBusy(false);
      return;
    }
    void navigate(me ? `/profile/${encodeURIComponent(me)}` : '/profile', {
      state: { toast: `Blocked @${member.username}` } satisfies ArrivalState,
    });
  };

  return (
    <>
      <p>
        They won’t find you in search or see your profile, photos or friends, and they can’t send
        you friend requests. You’ll stop being friends and any pending requests between you are
        removed. They won’t be told.
      </p>
      <DialogActions
        error={error}
        onCancel={onCancel}
        confirm={{
          label: 'Block',
          danger: true,
          busy,
          ...needsNetwork(busy),
          onClick: () => void block(),
        }}
      />
    </>
  );
}
