package web

import (
	"sync"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
)

// gameNames are the names players know the games by, for page titles: by
// the ledger's game and by replay format.
var gameNames = map[string]string{
	"auction": "Blind Auction", "bargain": "Negotiation Games",
	verify.FormatAuction: "Blind Auction", verify.FormatBargain: "Negotiation Games",
}

// gameName is the players' name of a ledger game or replay format
// ("auction": "Blind Auction"), or the name as given when it has none.
func gameName(game string) string {
	if n, ok := gameNames[game]; ok {
		return n
	}
	return game
}

// replayResult is a result entry that names a replay: the stronger page
// of that replay is /replay/{Index}, which holds it to the seed the
// ledger committed for the match.
type replayResult struct {
	Index   int64
	Game    string // players' name, gameName
	MatchID string
}

// searchIndex maps what a reader searches for to the entries holding
// it: each replay digest to the result entries naming it, each seed
// commitment to its seed-commit entries, each player name to the entries
// naming the player (commit, reveal, edit), all in ledger order. It is
// built by reading the ledger's entries once and then only the entries
// appended since; commitments of commit entries are looked up in the
// store instead (ledger.CommitsByCommitment).
type searchIndex struct {
	mu          sync.Mutex
	size        int64
	results     map[string][]replayResult
	seedCommits map[string][]int64
	players     map[string][]int64
}

// catchUp reads the entries appended since the last call (ix.mu held).
func (ix *searchIndex) catchUp(r *ledger.Ledger) error {
	size, err := r.Size()
	if err != nil {
		return err
	}
	if ix.results == nil {
		ix.results, ix.seedCommits, ix.players = map[string][]replayResult{}, map[string][]int64{}, map[string][]int64{}
	}
	for ix.size < size {
		es, err := r.Entries(ix.size, ledger.MaxEntries)
		if err != nil {
			return err
		}
		if len(es) == 0 {
			break
		}
		for i := range es {
			b, err := es[i].Body()
			if err != nil {
				continue
			}
			switch es[i].Kind {
			case ledger.KindResult:
				ix.results[b.ReplaySHA256] = append(ix.results[b.ReplaySHA256], replayResult{Index: es[i].Index, Game: gameName(b.Game), MatchID: b.MatchID})
			case ledger.KindSeedCommit:
				ix.seedCommits[b.Commitment] = append(ix.seedCommits[b.Commitment], es[i].Index)
			}
			if b.Player != "" {
				ix.players[b.Player] = append(ix.players[b.Player], es[i].Index)
			}
		}
		ix.size = es[len(es)-1].Index + 1
	}
	return nil
}

// resultsNaming returns the result entries of the ledger r that name the
// replay digest (64 lowercase hex digits), oldest first.
func (ix *searchIndex) resultsNaming(r *ledger.Ledger, digest string) ([]replayResult, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.catchUp(r); err != nil {
		return nil, err
	}
	return ix.results[digest], nil
}

// seedCommitsOf returns the seed-commit entries carrying the seed
// commitment (64 lowercase hex digits), oldest first.
func (ix *searchIndex) seedCommitsOf(r *ledger.Ledger, commitment string) ([]int64, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.catchUp(r); err != nil {
		return nil, err
	}
	return ix.seedCommits[commitment], nil
}

// entriesOfPlayer returns the entries naming the player (the exact name,
// as the ledger stores it), oldest first.
func (ix *searchIndex) entriesOfPlayer(r *ledger.Ledger, player string) ([]int64, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.catchUp(r); err != nil {
		return nil, err
	}
	return ix.players[player], nil
}
