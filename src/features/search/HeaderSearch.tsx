import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { useNavigate } from 'react-router-dom';
import { PRODUCT_NAME } from '../../lib/constants.ts';
import type { SearchResult } from '../../contracts/friends.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { useDismiss } from '../../components/useDismiss.ts';
import { useSession } from '../auth/store.ts';
import { useFriends } from '../friends/store.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { SearchRowAction } from './SearchRowAction.tsx';
import { rowStatus, useMemberSearch } from './useMemberSearch.ts';
import './HeaderSearch.css';

/** Arrow keys wrap around the list (docs/product.md "Header search"). */
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
  const known = useFriends((state) => state.statuses[row.id]?.status);
  const status = row.id === meId ? 'self' : (known ?? rowStatus(row, meId));
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
      <SearchRowAction userId={row.id} username={row.username} status={status} />
    </li>
  );
}

function SearchIcon() {
  return (
    <Icon
      size={22}
      path="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3Zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10Z"
    />
  );
}

export function HeaderSearch() {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const meId = useSession((state) => state.user?.id);
  const state = useMemberSearch(query);
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const listId = useId();
  // On a phone the box folds into a button that opens it over the bar (see HeaderSearch.css).
  const [expanded, setExpanded] = useState(false);
  const close = useCallback(() => {
    setOpen(false);
    setExpanded(false);
  }, []);
  useDismiss(ref, open || expanded, close);
  // The Search button shows again only once the box has folded: focus goes to it then.
  const refocusOpener = useRef(false);
  const collapse = () => {
    close();
    refocusOpener.current = true;
  };
  useEffect(() => {
    if (expanded) input.current?.focus();
    else if (refocusOpener.current) opener.current?.focus();
    refocusOpener.current = false;
  }, [expanded]);
  // Searching asks the server: offline, the box is disabled with the reason.
  const needsNetwork = useNeedsNetwork();
  const searchable = needsNetwork();

  const results = state.phase === 'done' ? state.results : [];
  const showPanel = open && query.trim() !== '' && !searchable.disabled;

  const choose = (row: SearchResult) => {
    setQuery('');
    setOpen(false);
    setExpanded(false);
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
      if (expanded) return collapse();
      // Escape closes the dropdown and keeps the query, which the browser would clear.
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div className={`header-search${expanded ? ' expanded' : ''}`} ref={ref} role="search">
      <button
        ref={opener}
        type="button"
        className="icon-button search-open"
        aria-label="Search"
        aria-expanded={expanded}
        onClick={() => setExpanded(true)}
      >
        <SearchIcon />
      </button>
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search members
      </label>
      <input
        ref={input}
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
      <button
        type="button"
        className="icon-button search-close"
        aria-label="Close search"
        onClick={collapse}
      >
        <Icon
          size={20}
          path="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4 6.4 5Z"
        />
      </button>
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
                  key={row.id}
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
