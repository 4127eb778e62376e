package secret

import (
	"fmt"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// TimeSource says where the time of a post came from.
type TimeSource string

const (
	// FromPostedAt: the time the post appeared in the game's channel, from
	// a referee's chat-log import (the channel is the medium of record).
	FromPostedAt TimeSource = "posted_at"
	// FromIntegratedAt: the ledger's integration time, used when the entry
	// carries no posted_at.
	FromIntegratedAt TimeSource = "integrated_at"
)

// Stamp is what every ledger entry carries about its place and time: its
// ledger index, the ledger's integration time and, optionally, the time the
// post appeared in the game channel (never later than the integration time;
// see docs/design.md, "Ledger").
type Stamp struct {
	// Index is the entry's ledger index (0-based leaf number).
	Index int64 `json:"index"`
	// IntegratedAt is the ledger's integration time of the entry.
	IntegratedAt time.Time `json:"integrated_at"`
	// PostedAt is the time the post appeared in the channel; the zero
	// time when the entry carries none.
	PostedAt time.Time `json:"posted_at,omitzero"`
}

// Time returns the time of the post and its source: PostedAt when set, else
// IntegratedAt.
func (s Stamp) Time() (time.Time, TimeSource) {
	if !s.PostedAt.IsZero() {
		return s.PostedAt, FromPostedAt
	}
	return s.IntegratedAt, FromIntegratedAt
}

// Post is a ledger "commit" entry: a player posted the commitment of a
// secret action of some type in a channel (seed 004, rule "Secret
// Information").
type Post struct {
	Stamp
	// Player posted the hash; ActionType is the type of game action
	// posted with it ("bid", "hand", ...); Channel where it was posted
	// ("#auctions").
	Player     string `json:"player"`
	ActionType string `json:"action_type"`
	Channel    string `json:"channel"`
	// Commitment is the SHA-256 the player posted.
	Commitment commit.Commitment `json:"commitment"`
}

// Edit is a ledger "edit" entry: the message holding the hash posted by
// entry Commit was edited (reading S4).
type Edit struct {
	Stamp
	// Commit is the ledger index of the Post whose message was edited;
	// Player is the player the entry names.
	Commit int64  `json:"commit"`
	Player string `json:"player"`
}

// Reveal is a ledger "reveal" entry: a player posted the unhashed text of
// the action posted by entry Commit.
type Reveal struct {
	Stamp
	// Commit is the ledger index of the Post revealed; Player posted the
	// reveal (it counts only from the Post's player).
	Commit int64  `json:"commit"`
	Player string `json:"player"`
	// Text is the revealed text, exact bytes as posted.
	Text []byte `json:"-"`
}

// History is everything the ledger holds about secret actions: posts, edits
// and reveals, in any order (the judge orders them by time of post, then
// ledger index).
type History struct {
	// Posts are the "commit" entries, Edits the "edit" entries and
	// Reveals the "reveal" entries.
	Posts   []Post
	Edits   []Edit
	Reveals []Reveal
}

// TimeUsed is one instant a decision rests on, with where it came from.
type TimeUsed struct {
	// What names the instant: "post", "edit", "reveal", "maturation date",
	// "revelation date", "at".
	What string `json:"what"`
	// Index is the ledger index of the entry the instant comes from; -1 for
	// a derived instant (maturation and revelation dates, the judgement's
	// "at").
	Index int64 `json:"index"`
	// At is the instant.
	At time.Time `json:"at"`
	// Source is posted_at or integrated_at for an entry's time, "" for a
	// derived instant.
	Source TimeSource `json:"source,omitempty"`
	// Gap is IntegratedAt minus PostedAt when the entry carries posted_at
	// and the difference exceeds the game's gap threshold; 0 otherwise.
	// Its JSON is an integer count of nanoseconds.
	Gap time.Duration `json:"gap,omitempty"`
}

// entryTime returns the TimeUsed of an entry's post time, with the gap shown
// when it exceeds threshold.
func entryTime(what string, s Stamp, threshold time.Duration) TimeUsed {
	t, src := s.Time()
	u := TimeUsed{What: what, Index: s.Index, At: t, Source: src}
	if src == FromPostedAt {
		if gap := s.IntegratedAt.Sub(s.PostedAt); gap > threshold || -gap > threshold {
			u.Gap = gap
		}
	}
	return u
}

// derivedTime returns the TimeUsed of a derived instant.
func derivedTime(what string, t time.Time) TimeUsed {
	return TimeUsed{What: what, Index: -1, At: t}
}

// FormatGap writes a gap between a post's posted_at and its integration
// time rounded to the second, with whole days split off and, after days,
// every unit written: "30m0s", "20d 8h55m21s", "253d 0h18m41s".
// Decisions and the CLI quote gaps in this one form.
func FormatGap(d time.Duration) string {
	d = d.Round(time.Second)
	if d >= 24*time.Hour {
		rem := d % (24 * time.Hour)
		return fmt.Sprintf("%dd %dh%dm%ds", d/(24*time.Hour), rem/time.Hour, rem%time.Hour/time.Minute, rem%time.Minute/time.Second)
	}
	return d.String()
}
