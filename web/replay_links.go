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

// resultIndex maps each replay digest to the result entries naming it, in
// ledger order, built by reading the ledger's entries once and then only
// the entries appended since.
type resultIndex struct {
	mu   sync.Mutex
	size int64
	m    map[string][]replayResult
}

// resultsNaming returns the result entries of the ledger r that name the
// replay digest (64 lowercase hex digits), oldest first.
func (ri *resultIndex) resultsNaming(r *ledger.Ledger, digest string) ([]replayResult, error) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	size, err := r.Size()
	if err != nil {
		return nil, err
	}
	if ri.m == nil {
		ri.m = map[string][]replayResult{}
	}
	for ri.size < size {
		es, err := r.Entries(ri.size, ledger.MaxEntries)
		if err != nil {
			return nil, err
		}
		if len(es) == 0 {
			break
		}
		for i := range es {
			if es[i].Kind != ledger.KindResult {
				continue
			}
			if b, err := es[i].Body(); err == nil {
				ri.m[b.ReplaySHA256] = append(ri.m[b.ReplaySHA256], replayResult{Index: es[i].Index, Game: gameName(b.Game), MatchID: b.MatchID})
			}
		}
		ri.size = es[len(es)-1].Index + 1
	}
	return ri.m[digest], nil
}
