import { REPORT_REASONS, REPORT_REASON_LABELS, type ReportReason } from '../../contracts/safety.ts';
import './moderation.css';

/** What each reason a report or a removal gives means on Orbit. */
const MEANING: Record<ReportReason, string> = {
  spam: 'advertising, scams, or the same thing posted again and again.',
  harassment: 'bullying, threats, or targeting a member.',
  nudity: 'nudity, or sexual content.',
  violence: 'violence, gore, or encouraging harm.',
  impersonation: 'pretending to be someone else.',
  other: 'anything else that breaks the law or puts members at risk.',
};

/**
 * `/rules` (docs/product.md "Moderation"): what Orbit does not allow, by the reasons members report
 * and moderators give; the notice of a removed photo links here.
 */
export function RulesPage() {
  return (
    <main className="moderation-page" id="main">
      <h1>Community rules</h1>
      <p>Photos and profiles on Orbit must not contain:</p>
      <ul>
        {REPORT_REASONS.map((reason) => (
          <li key={reason}>
            <strong>{REPORT_REASON_LABELS[reason]}</strong>: {MEANING[reason]}
          </li>
        ))}
      </ul>
      <p>
        Members report what breaks these rules. A moderator may remove a photo, telling its owner
        which photo and why, or suspend an account, giving the member the reason when they log in.
      </p>
    </main>
  );
}
