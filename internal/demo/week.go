package demo

import (
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// A scripted week of the lot auction (seed 004, rules "Secret Information"
// and "Auctions"), in week W, UTC: the Auction Phase runs Monday 00:00 to
// Thursday 00:00, so every action posted Monday to Wednesday matures
// Thursday 00:00 and must be revealed before Sunday 00:00 (reading S5).
// This is the week rules/lots' TestWeek works by hand, plus frank's near
// miss:
//
//   - alice (Mon 09:00) bids 15 on lot 1 and 5 on lot 2, reveals Friday.
//   - bob (Mon 10:00) bids 15 on lot 1, reveals Friday.
//   - carol (Mon 11:00) bids 20 on lot 2 and edits the post Tuesday, before
//     maturation: fails (S4); her Friday reveal does not count.
//   - bob posts again Tuesday while his first bid is outstanding: the new
//     attempt fails (S1).
//   - dan (Tue 12:00) bids 8 on lot 2 and reveals Sunday 00:30: late, fails.
//   - frank (Tue 13:00) bids 12 on lot 1 and reveals the text with a trailing
//     newline: the bytes do not match (S3), the near-miss hint says so, and
//     the action fails at the revelation date.
//   - erin (Wed 08:00) submits a Hand, a nine-high heart flush, reveals
//     Saturday: placed first, prize 10 points.
//
// Conclusion (first-price): lot 1, alice and bob both 15, alice posted
// first (S7); lot 2, alice's 5 is the only standing bid. Points after:
// alice 30-15-5 = 10, bob 40, carol 25, dan 10, erin 0+10 = 10, frank 20.

// action is one scripted secret action.
type action struct {
	key        string // names it in the script
	player     string
	actionType string
	channel    string
	decl       string
	posted     time.Duration // after the week's Monday 00:00
	want       secret.State
	wantReason secret.Reason
}

// reveal is one scripted reveal; suffix is appended to the exact reveal
// text (frank's slip).
type reveal struct {
	key    string
	at     time.Duration
	suffix string
}

// edit is one scripted edit of an action's post.
type edit struct {
	key string
	at  time.Duration
}

const (
	hour = time.Hour
	day  = 24 * time.Hour
)

var weekActions = []action{
	{"alice", "alice", secret.ActionBid, secret.AuctionsChannel, "I bid 15 on lot 1\nI bid 5 on lot 2", 9 * hour, secret.Revealed, ""},
	{"bob", "bob", secret.ActionBid, secret.AuctionsChannel, "I bid 15 on lot 1", 10 * hour, secret.Revealed, ""},
	{"carol", "carol", secret.ActionBid, secret.AuctionsChannel, "I bid 20 on lot 2", 11 * hour, secret.Failed, secret.EditedBeforeMaturation},
	{"bob-again", "bob", secret.ActionBid, secret.AuctionsChannel, "I bid 25 on lot 2", day + 10*hour, secret.Failed, secret.AttemptOutstanding},
	{"dan", "dan", secret.ActionBid, secret.AuctionsChannel, "I bid 8 on lot 2", day + 12*hour, secret.Failed, secret.NotRevealed},
	{"frank", "frank", secret.ActionBid, secret.AuctionsChannel, "I bid 12 on lot 1", day + 13*hour, secret.Failed, secret.NotRevealed},
	{"erin", "erin", secret.ActionHand, secret.DefaultChannel, "hand: 9H 8H 4H 3H 2H", 2*day + 8*hour, secret.Revealed, ""},
}

var weekEdits = []edit{{"carol", day + 11*hour}}

var weekReveals = []reveal{
	{"alice", 4*day + 9*hour, ""},
	{"bob", 4*day + 10*hour, ""},
	{"bob-again", 4*day + 11*hour, ""},
	{"carol", 4*day + 12*hour, ""},
	{"frank", 4*day + 13*hour, "\n"},
	{"erin", 5*day + 9*hour, ""},
	{"dan", 6*day + 30*time.Minute, ""},
}

// The state of the game before the week's conclusion.
var (
	weekPoints = map[string]int64{"alice": 30, "bob": 40, "carol": 25, "dan": 10, "erin": 0, "frank": 20}
	weekHands  = map[string][]string{"erin": {"9H", "8H", "4H", "3H", "2H", "AS"}}
	weekPrizes = []int64{10}
	weekLots   = []string{"1", "2"}
)

// The games are played on the week's Monday morning: the seeds are
// committed at 08:00 and revealed, with the results, at 12:00.
const (
	seedCommitAt = 8 * hour
	seedRevealAt = 12 * hour
)
