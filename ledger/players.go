package ledger

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"go.mau.fi/util/confusable"
)

// Skeleton is the Unicode confusable skeleton of a player name (UTS #39
// "Unicode Security Mechanisms", section 4, Confusable Detection): the
// name in NFD, each character replaced by its prototype from
// confusables.txt, and NFD again, so that two names that render alike
// have the same skeleton: "аlice" (with U+0430 CYRILLIC SMALL LETTER A)
// and "alice" are both "alice", "paypa1" is "paypal" (U+0031 DIGIT ONE
// maps to "l"), "modern" is "rnodern" (m maps to "rn"). Letter case is
// kept ("Alice" is not "alice"). It is go.mau.fi/util/confusable's
// Skeleton over confusables.txt version 17.0.0, which also drops
// characters that are not graphic (Unicode categories C, Zl and Zp);
// names holding invisible characters are refused before a skeleton is
// taken (docs/ledger.md "Player names"). A skeleton is for comparing,
// never for showing.
//
// The players table stores skeletons, and the audit re-derives them: a
// change of the confusables data is a schema migration that re-derives
// the table.
func Skeleton(name string) string { return confusable.Skeleton(name) }

// StoredPlayer is one row of a store's players table: for each skeleton
// (Skeleton) of the player names commit entries carry, the name and
// index of the first commit entry, in index order, whose player has that
// skeleton. A commit entry naming a different player of the same
// skeleton is refused (ConfusableNameError); the audit re-derives the
// table from the commit leaves.
type StoredPlayer struct {
	Skeleton string
	Player   string
	Index    int64
}

// ConfusableNameError is returned by Append (and, as the Err of a
// verify.AdmissionError, by verify.Admit) for a commit entry whose player
// is not a player of the log yet but renders like one: its Skeleton is
// the skeleton of Existing, first named by commit entry Index. Web
// answers 400; the CLI exits 2 with a hint.
type ConfusableNameError struct {
	Player   string // the name refused
	Existing string // the player whose name it looks like
	Index    int64  // the first commit entry naming Existing
	Skeleton string // their shared confusable skeleton
}

// Error names both players, with their characters spelled out, and the
// skeleton.
func (e *ConfusableNameError) Error() string {
	return fmt.Sprintf("player %q (%s) looks like the player %q (%s) first named by commit entry %d: both have the Unicode confusable skeleton %q (UTS #39); a new player needs a name that does not render like another player's",
		e.Player, strconv.QuoteToASCII(e.Player), e.Existing, strconv.QuoteToASCII(e.Existing), e.Index, e.Skeleton)
}

// commitPlayer returns the player of a commit leaf, ok false for another
// kind or a leaf without one.
func commitPlayer(kind Kind, leaf []byte) (string, bool) {
	if kind != KindCommit {
		return "", false
	}
	return topLevelString(leaf, "player")
}

// PlayerLike returns the players row whose skeleton is name's: the first
// player (by commit entry) whose name renders like name, which is name
// itself when name is already a player. It returns an error wrapping
// ErrNotFound when no player looks like name. One lookup in the store
// (Store.PlayerBySkeleton), O(log n).
func (l *Ledger) PlayerLike(name string) (*StoredPlayer, error) {
	return l.store.PlayerBySkeleton(context.Background(), Skeleton(name))
}

// CheckNewPlayer returns a *ConfusableNameError if name is not a player
// of the log but renders like one (PlayerLike), else nil; other errors
// are storage errors.
func (l *Ledger) CheckNewPlayer(name string) error {
	p, err := l.PlayerLike(name)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if p.Player != name {
		return &ConfusableNameError{Player: name, Existing: p.Player, Index: p.Index, Skeleton: p.Skeleton}
	}
	return nil
}

// maxPlayerCache bounds the sequencer's cache of known players.
const maxPlayerCache = 1 << 16

// DerivePlayers returns the players rows that entries (consecutive, in
// index order; only Index, Kind and Leaf are read) add to a log whose
// players table holds known (skeleton -> row): one for each commit entry
// whose player's skeleton is in neither known nor an earlier entry. The
// rows returned are added to known. Stores use it to fill the table of
// an existing ledger (their schema migration), Copy to fill a copy's.
func DerivePlayers(entries []StoredEntry, known map[string]StoredPlayer) []StoredPlayer {
	var out []StoredPlayer
	for i := range entries {
		p, ok := commitPlayer(entries[i].Kind, entries[i].Leaf)
		if !ok {
			continue
		}
		sk := Skeleton(p)
		if _, ok := known[sk]; ok {
			continue
		}
		row := StoredPlayer{Skeleton: sk, Player: p, Index: entries[i].Index}
		known[sk] = row
		out = append(out, row)
	}
	return out
}
