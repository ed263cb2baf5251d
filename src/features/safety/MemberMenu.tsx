import { useState } from 'react';
import { ActionMenu } from '../../components/ActionMenu.tsx';
import { useOfflineNote } from '../offline/store.ts';
import { BlockDialog, type Member } from './BlockDialog.tsx';
import { useReportAction } from './reported.ts';
import { ReportDialog } from './ReportDialog.tsx';

/** The `⋯` of another member's profile (docs/product.md "Blocking"): block them, or report them. */
export function MemberMenu({ member }: { member: Member }) {
  const [open, setOpen] = useState<'block' | 'report' | null>(null);
  const offlineNote = useOfflineNote();
  const close = () => setOpen(null);
  const report = useReportAction('member', member.id, () => setOpen('report'));
  return (
    <div className="member-menu">
      <ActionMenu
        label={`More actions for @${member.username}`}
        offline={offlineNote}
        actions={[
          {
            label: `Block @${member.username}`,
            run: () => setOpen('block'),
            danger: true,
            needsNetwork: true,
          },
          report,
        ]}
      />
      <BlockDialog open={open === 'block'} member={member} onClose={close} />
      <ReportDialog
        open={open === 'report'}
        target={{ kind: 'member', id: member.id, username: member.username }}
        onClose={close}
      />
    </div>
  );
}
