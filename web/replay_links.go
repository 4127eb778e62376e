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
// naming the player (commit, reveal, edit, contribution), all in ledger
// order. It is filled by the judgement's pass over the entries checked
// against a signed checkpoint (judgeCache.extend), so each entry is read
// once, for both; commitments of commit entries are looked up through
// the judgement instead. Its maps are only added to, under mu.
type searchIndex struct {
	mu          sync.RWMutex
	size        int64 // the entries below size are indexed
	results     map[string][]replayResult
	seedCommits map[string][]int64
	players     map[string][]int64
}

// searchAdds is what one pass over new entries adds to a searchIndex,
// kept aside until the pass's entries are backed by the checkpoint.
type searchAdds struct {
	results     map[string][]replayResult
	seedCommits map[string][]int64
	players     map[string][]int64
}

// player records that the entry at index names player.
func (a *searchAdds) player(player string, index int64) {
	if player == "" {
		return
	}
	if a.players == nil {
		a.players = map[string][]int64{}
	}
	a.players[player] = append(a.players[player], index)
}

// other adds an entry of a kind the judgement does not decode (result,
// seed-commit, seed-reveal, contribution): its body is decoded here, and
// one that does not decode is left out, as the search never finds it.
func (a *searchAdds) other(e *ledger.Entry) {
	b, err := e.Body()
	if err != nil {
		return
	}
	switch e.Kind {
	case ledger.KindResult:
		if a.results == nil {
			a.results = map[string][]replayResult{}
		}
		a.results[b.ReplaySHA256] = append(a.results[b.ReplaySHA256], replayResult{Index: e.Index, Game: gameName(b.Game), MatchID: b.MatchID})
	case ledger.KindSeedCommit:
		if a.seedCommits == nil {
			a.seedCommits = map[string][]int64{}
		}
		a.seedCommits[b.Commitment] = append(a.seedCommits[b.Commitment], e.Index)
	}
	a.player(b.Player, e.Index)
}

// merge adds a's entries, all below size and above those already
// indexed, to ix, which then covers the entries below size.
func (ix *searchIndex) merge(a *searchAdds, size int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.results == nil {
		ix.results, ix.seedCommits, ix.players = map[string][]replayResult{}, map[string][]int64{}, map[string][]int64{}
	}
	for k, v := range a.results {
		ix.results[k] = append(ix.results[k], v...)
	}
	for k, v := range a.seedCommits {
		ix.seedCommits[k] = append(ix.seedCommits[k], v...)
	}
	for k, v := range a.players {
		ix.players[k] = append(ix.players[k], v...)
	}
	ix.size = max(ix.size, size)
}

// find returns what pick finds in ix once ix covers the entries the
// judgement covers (jc.get: checked against the ledger at most once per
// TTL). When pick finds nothing and a signed checkpoint covers entries ix
// does not, the ledger is checked again at once (jc.refresh), so an entry
// appended by another process is found as soon as a checkpoint covers it;
// entries no checkpoint covers yet cost a miss no wait.
func find[T any](jc *judgeCache, pick func(ix *searchIndex) []T) ([]T, error) {
	if _, err := jc.get(); err != nil {
		return nil, err
	}
	ix := &jc.search
	ix.mu.RLock()
	got, size := pick(ix), ix.size
	ix.mu.RUnlock()
	if len(got) > 0 {
		return got, nil
	}
	if cp, err := jc.l.LatestCheckpoint(); err != nil || cp.Size <= size {
		return nil, err // nothing signed beyond what ix covers
	}
	if _, err := jc.refresh(); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return pick(ix), nil
}

// resultsNaming returns the result entries that name the replay digest
// (64 lowercase hex digits), oldest first. The slice must not be changed.
func (jc *judgeCache) resultsNaming(digest string) ([]replayResult, error) {
	return find(jc, func(ix *searchIndex) []replayResult { return ix.results[digest] })
}

// seedCommitsOf returns the seed-commit entries carrying the seed
// commitment (64 lowercase hex digits), oldest first. The slice must not
// be changed.
func (jc *judgeCache) seedCommitsOf(commitment string) ([]int64, error) {
	return find(jc, func(ix *searchIndex) []int64 { return ix.seedCommits[commitment] })
}

// entriesOfPlayer returns the entries naming the player (the exact name,
// as the ledger stores it), oldest first. The slice must not be changed.
func (jc *judgeCache) entriesOfPlayer(player string) ([]int64, error) {
	return find(jc, func(ix *searchIndex) []int64 { return ix.players[player] })
}
