import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar.tsx';
import { breakable } from '../../components/breakable.tsx';
import {
  type ModerationReport,
  REPORT_REASON_LABELS,
  type ReportMember,
} from '../../contracts/safety.ts';
import { assetUrl } from '../../lib/apiHost.ts';
import { PLACEHOLDER_IMAGE } from '../gallery/sources.ts';
import { relativeTime } from '../notifications/logic.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { RESOLUTION_LABELS, memberName } from './logic.ts';
import { type ActionOutcome, useModeration } from './store.ts';

/** `@username` linking to their profile, or `deleted member`. */
function MemberLink({ member }: { member: ReportMember | null }) {
  if (!member) return <>{memberName(member)}</>;
  return (
    <Link to={`/profile/${encodeURIComponent(member.username)}`}>
      {breakable(memberName(member))}
    </Link>
  );
}

function When({ at, now }: { at: string; now: number }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {relativeTime(at, now)}
    </time>
  );
}

/** What was reported: the photo with its owner, or the member. */
function ReportedItem({ report }: { report: ModerationReport }) {
  if (report.kind === 'member') {
    return (
      <div className="report-item">
        <Avatar
          src={report.member?.profileImage ?? ''}
          username={report.member?.username ?? ''}
          size={56}
          decorative
        />
        <p className="report-subject">
          <MemberLink member={report.member} />
        </p>
      </div>
    );
  }
  const { image } = report;
  return (
    <div className="report-item">
      {image ? (
        <a href={assetUrl(image.url)} target="_blank" rel="noopener noreferrer">
          <img
            className="report-photo"
            src={assetUrl(image.thumbnailUrl)}
            alt={image.caption || 'Reported photo'}
            width={96}
            height={96}
          />
        </a>
      ) : (
        <img className="report-photo" src={PLACEHOLDER_IMAGE} alt="" width={96} height={96} />
      )}
      <p className="report-subject">
        Photo by <MemberLink member={report.member} />
      </p>
    </div>
  );
}

export interface ReportCardProps {
  report: ModerationReport;
  now: number;
  onSuspend: (report: ModerationReport) => void;
  onRemovePhoto: (report: ModerationReport) => void;
  /** `Dismiss` ended; the report may have left the list. */
  onDismissed: (report: ModerationReport, outcome: ActionOutcome) => void;
}

/** One report as moderators see it (docs/product.md "Moderation"). */
export function ReportCard({
  report,
  now,
  onSuspend,
  onRemovePhoto,
  onDismissed,
}: ReportCardProps) {
  const busy = useModeration((state) => Boolean(state.busy[report.id]));
  const act = useModeration((state) => state.act);
  const needsNetwork = useNeedsNetwork();
  return (
    <li className="report" aria-busy={busy || undefined}>
      <ReportedItem report={report} />
      <div className="report-details">
        <p className="report-reporter">
          Reported by <MemberLink member={report.reporter} />
        </p>
        <p className="report-reason">{REPORT_REASON_LABELS[report.reason]}</p>
        {report.note && <p className="report-note">{report.note}</p>}
        <p className="report-meta">
          <When at={report.createdAt} now={now} />
        </p>
        {report.status === 'resolved' && report.resolution ? (
          <p className="report-resolution">
            {RESOLUTION_LABELS[report.resolution]} by <MemberLink member={report.resolvedBy} />
            {report.resolvedAt && (
              <>
                {' · '}
                <When at={report.resolvedAt} now={now} />
              </>
            )}
          </p>
        ) : (
          <div className="report-actions">
            <button
              type="button"
              className="button ghost"
              {...needsNetwork(busy)}
              onClick={() =>
                void act('dismiss', report).then((outcome) => onDismissed(report, outcome))
              }
            >
              Dismiss
            </button>
            {report.kind === 'image' && report.image && (
              <button
                type="button"
                className="button danger"
                {...needsNetwork(busy)}
                onClick={() => onRemovePhoto(report)}
              >
                Remove photo
              </button>
            )}
            {/* A member whose account is gone has nothing left to suspend. */}
            {report.member && (
              <button
                type="button"
                className="button danger"
                {...needsNetwork(busy)}
                onClick={() => onSuspend(report)}
              >
                Suspend member
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
