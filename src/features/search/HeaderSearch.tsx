import { type KeyboardEvent, useCallback, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PRODUCT_NAME } from '../../contracts/constants.ts';
import type { SearchResult } from '../../contracts/friends.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { useDismiss } from '../../app/useDismiss.ts';
import { useSession } from '../auth/store.ts';
import { useFriends } from '../friends/store.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { SearchRowAction } from './SearchRowAction.tsx';
import { rowStatus, useMemberSearch } from './useMemberSearch.ts';
import './HeaderSearch.css';

/** Arrow keys wrap around the list (SPEC §2.5). */
export function moveHighlight(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

function ResultRow({
  row,
  meId,
  highlighted,
  id,
  onChoose,
}: {
  row: SearchResult;
  meId: string | undefined;
  highlighted: boolean;
  id: string;
  onChoose: (row: SearchResult) => void;
}) {
  const known = useFriends((state) => state.statuses[row._id]?.status);
  const status = row._id === meId ? 'self' : (known ?? rowStatus(row, meId));
  return (
    <li
      id={id}
      className={`search-row${highlighted ? ' highlighted' : ''}`}
      aria-current={highlighted || undefined}
    >
      <a
        className="search-row-member"
        href={`/profile/${encodeURIComponent(row.username)}`}
        tabIndex={-1}
        onClick={(event) => {
          event.preventDefault();
          onChoose(row);
        }}
      >
        <Avatar src={row.profileImage} username={row.username} size={36} decorative />
        <span className="search-row-names">
          <span className="search-row-username">@{row.username}</span>
          {row.fullName && <span className="search-row-fullname">{row.fullName}</span>}
        </span>
      </a>
      <SearchRowAction userId={row._id} username={row.username} status={status} />
    </li>
  );
}

export function HeaderSearch() {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const meId = useSession((state) => state.user?.id);
  const state = useMemberSearch(query, meId);
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const listId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  // Searching asks the server: offline, the box is disabled with the reason.
  const needsNetwork = useNeedsNetwork();
  const searchable = needsNetwork();

  const results = state.phase === 'done' ? state.results : [];
  const showPanel = open && query.trim() !== '' && !searchable.disabled;

  const choose = (row: SearchResult) => {
    setQuery('');
    setOpen(false);
    setHighlight(-1);
    void navigate(`/profile/${encodeURIComponent(row.username)}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      setHighlight((current) =>
        moveHighlight(current, results.length, event.key === 'ArrowDown' ? 1 : -1),
      );
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const row = results[highlight] ?? results[0];
      if (row) choose(row);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className="header-search" ref={ref} role="search">
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search members
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        placeholder={`Search ${PRODUCT_NAME} users...`}
        autoComplete="off"
        {...searchable}
        value={query}
        aria-controls={listId}
        aria-expanded={showPanel}
        aria-activedescendant={showPanel && highlight >= 0 ? `${listId}-${highlight}` : undefined}
        role="combobox"
        aria-autocomplete="list"
        onChange={(event) => {
          setQuery(event.target.value);
          setHighlight(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {showPanel && (
        <div className="search-panel" id={listId}>
          {state.phase === 'searching' && (
            <p className="search-note" role="status">
              Searching…
            </p>
          )}
          {state.phase === 'error' && (
            <p className="search-note error" role="alert">
              {state.message}
            </p>
          )}
          {state.phase === 'done' && results.length === 0 && (
            <p className="search-note" role="status">
              No results.
            </p>
          )}
          {results.length > 0 && (
            <ul className="search-results" aria-label="Members found">
              {results.map((row, index) => (
                <ResultRow
                  key={row._id}
                  id={`${listId}-${index}`}
                  row={row}
                  meId={meId}
                  highlighted={index === highlight}
                  onChoose={choose}
                />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
