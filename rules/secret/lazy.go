package secret

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// Lazy is Judge's judgement made one player at a time, when an action of
// the player is first asked for: an action depends only on its own
// entries, on the earlier actions of its player and type, and (for its
// flags) on the earlier posts of every player and the salts of its
// player's earlier actions, so a player's actions can be judged without
// judging anyone else's. Action(i) is exactly Judge's Actions[i]
// (TestLazyMatchesJudge). Safe for concurrent use.
type Lazy struct {
	g       Game
	at      time.Time
	edits   map[int64][]Edit
	reveals map[int64][]Reveal
	// posts are the posts in Judge's order (posts.at(i) is the i-th).
	// The action of the i-th is kept with its player's (slot(i)), made
	// when that player is judged: the actions nobody asked for yet take
	// no memory (on a large ledger, most of the judgement's memory, which
	// the first lookup after a start would otherwise wait for, and the
	// collector scan), and a player's actions are side by side, however
	// spread over the ledger their posts are (the first lookup writes
	// the pages of its player's actions only).
	posts ordering
	// playerOf is the player number of each post and rank its place
	// among that player's posts (players[playerOf[i]].all[rank[i]] ==
	// i); index its ledger index; players the posts of each player, by
	// action type (in time order), and all of them in time order; names
	// the players' names.
	playerOf []int32
	rank     []int32
	index    []int64
	players  []lazyPlayer
	names    []string
	// found is the positions of the posts sorted by commitment, then
	// position (commitmentKey.compare), and prefixes the first 8 bytes of
	// their commitments (big-endian: sorted too): Find and the
	// copied-commitment flags bisect them (commitmentRange). A sorted
	// slice, not a map of every commitment: a fraction of the memory, made
	// in a fraction of the time; Find returns slices of found.
	found    []int
	prefixes []uint64
	// dir[b] is the first place in found whose prefix's top bits
	// (prefix>>shift) are at least b: a lookup bisects one bucket of
	// about one key, not the whole slice (whose every step would be a
	// cache miss on a large ledger).
	dir   []int32
	shift uint
	// next is the earliest maturation or revelation date after at.
	next time.Time
}

// slot returns where the action of posts[i] is kept; it is final once
// its player's judged count passed it (judgeUpTo).
func (z *Lazy) slot(i int) *Action {
	return &z.players[z.playerOf[i]].actions[z.rank[i]]
}

// lazyPlayer is one player's posts and how far they are judged. A
// player's actions are judged in time order, as far as an asked action
// (judgeUpTo): an action depends only on its player's earlier actions,
// so a lookup of a player's early action does not wait for the later
// ones.
type lazyPlayer struct {
	types []string // the player's action types, in order of first post
	all   []int    // every position, in order
	group []int32  // group[k]: the type of all[k] (an index in types)
	// judged is how many of all's actions are judged (final, never
	// written again); read without mu, written under it after the
	// actions it covers.
	judged atomic.Int32
	mu     sync.Mutex // held while judging
	// actions are the actions of all's posts (actions[k] is all[k]'s),
	// made when the player is first judged and written under mu only.
	actions []Action
	// The judging's state, kept while the player is partly judged: the
	// outstanding attempts of each type (judgeOne's live), the earliest
	// post of each commitment by another player (copy flags) and the
	// first action of each revealed salt (salt-reuse flags).
	live  [][]*Action
	other map[commit.Commitment]int
	seen  map[string]int
}

// Prepare checks g and h as Judge does and returns the judgement of h at
// the instant at, to be made one player at a time (Lazy). It costs a sort
// of the posts' positions (none when the posts are in time order and all
// at or before at) and a sort of their commitments; the rules run when an
// action is asked for. The Lazy keeps h.Posts itself, which it never
// writes, instead of a copy: the caller must not change them while it
// uses the Lazy (appending to the slice is fine).
func (g Game) Prepare(h History, at time.Time) (*Lazy, error) {
	posts, edits, reveals, err := g.prepare(h, at)
	if err != nil {
		return nil, err
	}
	n := posts.len()
	z := &Lazy{g: g, at: at, edits: edits, reveals: reveals,
		posts: posts, playerOf: make([]int32, n), rank: make([]int32, n), index: make([]int64, n)}
	// The commitments' index is built beside the players' (on a large
	// ledger, on two goroutines).
	done := make(chan struct{})
	index := func() {
		defer close(done)
		keys := make([]commitmentKey, n)
		for i := range n {
			keys[i] = commitmentKey{binary.BigEndian.Uint64(posts.at(i).Commitment[:8]), int32(i)}
		}
		slices.SortFunc(keys, func(a, b commitmentKey) int { return a.compare(b, &posts) })
		z.found, z.prefixes = make([]int, n), make([]uint64, n)
		for k, key := range keys {
			z.found[k], z.prefixes[k] = int(key.pos), key.prefix
		}
		// The directory: about one bucket per post, by the prefix's top
		// bits (the commitments are hashes: evenly spread).
		z.shift = uint(64 - bits.Len(uint(n)))
		z.dir = make([]int32, 1<<(64-z.shift)+1)
		k := 0
		for b := range z.dir {
			for k < n && z.prefixes[k]>>z.shift < uint64(b) {
				k++
			}
			z.dir[b] = int32(k)
		}
	}
	if n >= parallelFrom {
		go index()
	} else {
		index()
	}
	playerNum := map[string]int32{}
	for i := range n {
		p := posts.at(i)
		pn, ok := playerNum[p.Player]
		if !ok {
			pn = int32(len(z.players))
			playerNum[p.Player] = pn
			z.players = append(z.players, lazyPlayer{})
			z.names = append(z.names, p.Player)
		}
		pl := &z.players[pn]
		z.playerOf[i], z.rank[i], z.index[i] = pn, int32(len(pl.all)), p.Index
		// A player posts a few action types: a post's is found by a look
		// along the player's types, not through a map of every player
		// and type.
		gi := slices.Index(pl.types, p.ActionType)
		if gi < 0 {
			gi = len(pl.types)
			pl.types = append(pl.types, p.ActionType)
		}
		pl.group = append(pl.group, int32(gi))
		pl.all = append(pl.all, i)
	}
	z.next = g.nextDate(&posts, at)
	<-done
	return z, nil
}

// Find returns the positions of the actions whose post carries commitment
// c, in order (none if no post does); a bisection of the posts sorted by
// commitment. The slice must not be changed.
func (z *Lazy) Find(c commit.Commitment) []int {
	lo, hi := z.commitmentRange(&c)
	if lo == hi {
		return nil
	}
	return z.found[lo:hi:hi]
}

// commitmentKey is a post's place in the commitment index, while Prepare
// sorts it: the first 8 bytes of its commitment (big-endian, so that keys
// sort as the commitments do) and its position in the posts.
type commitmentKey struct {
	prefix uint64
	pos    int32
}

// compare orders keys by commitment (the prefix, then the whole
// commitment of posts: no two commitments compare equal unless they
// are), then by position.
func (a commitmentKey) compare(b commitmentKey, posts *ordering) int {
	if a.prefix != b.prefix {
		return cmp.Compare(a.prefix, b.prefix)
	}
	if c := bytes.Compare(posts.at(int(a.pos)).Commitment[:], posts.at(int(b.pos)).Commitment[:]); c != 0 {
		return c
	}
	return cmp.Compare(a.pos, b.pos)
}

// commitmentRange returns the places [lo, hi) of found whose posts carry
// commitment c, in position order (lo == hi if none).
func (z *Lazy) commitmentRange(c *commit.Commitment) (lo, hi int) {
	prefix := binary.BigEndian.Uint64(c[:8])
	order := func(k int) int {
		if z.prefixes[k] != prefix {
			return cmp.Compare(z.prefixes[k], prefix)
		}
		return bytes.Compare(z.posts.at(z.found[k]).Commitment[:], c[:])
	}
	b := prefix >> z.shift
	from, to := int(z.dir[b]), int(z.dir[b+1])
	lo = from + sort.Search(to-from, func(k int) bool { return order(from+k) >= 0 })
	// The end by bisection too, not by a walk over the places of c: a
	// commitment posted by n players (copies) would otherwise cost n
	// steps for each of their posts, n² when they are judged.
	hi = lo + sort.Search(to-lo, func(k int) bool { return order(lo+k) > 0 })
	return lo, hi
}

// At is the instant judged.
func (z *Lazy) At() time.Time { return z.at }

// Len is the number of actions: the posts at or before At.
func (z *Lazy) Len() int { return z.posts.len() }

// NextDate is the earliest maturation or revelation date of an action
// after At, as Judge sets the dates (the zero time if none is): until
// then, and with no new entry, no state changes. It judges nothing.
func (z *Lazy) NextDate() time.Time { return z.next }

// Action is action i as Judge's Actions[i]. It judges the player's
// actions up to i (in time order) that are not judged yet. The Action
// must not be changed.
func (z *Lazy) Action(i int) *Action {
	pl := &z.players[z.playerOf[i]]
	z.judgeUpTo(pl, z.rank[i]+1)
	return z.slot(i)
}

// Judgement judges every player not judged yet and returns the whole
// judgement, as Judge would (its Actions are copies of z's: their Flags
// and Decisions are shared with z).
func (z *Lazy) Judgement() *Judgement {
	for i := range z.players {
		pl := &z.players[i]
		z.judgeUpTo(pl, int32(len(pl.all)))
	}
	actions := make([]Action, z.posts.len())
	for i := range actions {
		actions[i] = *z.slot(i)
	}
	return &Judgement{At: z.at, Actions: actions}
}

// JudgeRest judges the players not judged yet, on up to GOMAXPROCS-1
// goroutines (at least one; a processor is left to whatever else runs,
// such as a server's requests) taking the players in turn, until all are
// or stop reports true (it is asked before each player): a server calls
// it in the background so that lookups find their actions judged.
func (z *Lazy) JudgeRest(stop func() bool) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(runtime.GOMAXPROCS(0)-1, 1), len(z.players)) {
		wg.Go(func() {
			for n := next.Add(1) - 1; n < int64(len(z.players)) && !stop(); n = next.Add(1) - 1 {
				pl := &z.players[n]
				z.judgeUpTo(pl, int32(len(pl.all)))
			}
		})
	}
	wg.Wait()
}

// judgeUpTo judges the player's first n actions (in time order) that are
// not judged yet, as judgeAll, flagCopies and flagSaltReuse do for them:
// each action in turn, then its copy and salt-reuse flags, which rest on
// earlier posts only.
func (z *Lazy) judgeUpTo(pl *lazyPlayer, n int32) {
	if pl.judged.Load() >= n {
		return
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	k := pl.judged.Load()
	if k >= n {
		return // judged meanwhile
	}
	if pl.actions == nil {
		pl.actions = make([]Action, len(pl.all))
		pl.live = make([][]*Action, len(pl.types))
		pl.other = map[commit.Commitment]int{}
		pl.seen = map[string]int{}
	}
	for ; k < n; k++ {
		i := pl.all[k]
		p := *z.posts.at(i)
		a := &pl.actions[k]
		live := &pl.live[pl.group[k]]
		*a = z.g.judgeOne(p, z.edits[p.Index], z.reveals[p.Index], live, z.at)
		*live = append(*live, a)
		z.flagCopy(pl, i, a)
		// flagSaltReuse, keyed by player and salt: one player's actions
		// alone.
		if salt, ok := revealedSalt(a, z.reveals); ok {
			if j, dup := pl.seen[salt]; dup {
				a.Flags = append(a.Flags, saltFlag(a, z.slot(j), salt))
			} else {
				pl.seen[salt] = i
			}
		}
	}
	pl.judged.Store(n)
	if int(n) == len(pl.all) {
		pl.live, pl.other, pl.seen = nil, nil, nil
	}
}

// flagCopy is flagCopies for action a of posts[i]: the flag names the
// earliest post of the commitment by another player, if earlier (the
// earliest post of each player is among flagCopies' firsts, in time
// order); found once per commitment of the player.
func (z *Lazy) flagCopy(pl *lazyPlayer, i int, a *Action) {
	p := &a.Post
	lo, hi := z.commitmentRange(&p.Commitment)
	if hi-lo < 2 {
		return
	}
	j, ok := pl.other[p.Commitment]
	if !ok {
		j = -1
		for _, k := range z.found[lo:hi] {
			if z.playerOf[k] != z.playerOf[i] {
				j = k
				break
			}
		}
		pl.other[p.Commitment] = j
	}
	if j >= 0 && j < i {
		earlier := Post{Stamp: Stamp{Index: z.index[j]}, Player: z.names[z.playerOf[j]]}
		a.Flags = append(a.Flags, copyFlag(p, &earlier))
	}
}

// nextDate is the earliest maturation or revelation date after at of the
// actions of posts, as judgeOne sets them (none for an action never
// taken), without judging them.
func (g Game) nextDate(posts *ordering, at time.Time) time.Time {
	var c calendarMemo
	var next time.Time
	later := func(t time.Time) {
		if t.After(at) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for i := range posts.len() {
		p := posts.at(i)
		posted, _ := p.Time()
		s := g.SettingsFor(p.ActionType)
		if p.Channel != s.Channel {
			continue
		}
		ph, _, end := c.phaseAt(g.Calendar, posted)
		if s.Phase != NoPhase && ph != s.Phase {
			continue
		}
		mat := end // MaturationDate: the next phase's start
		if s.Maturation == MatureAfterDelay {
			mat = posted.Add(s.MaturationDelay)
		}
		later(mat)
		later(c.addDays(g.Calendar, mat, s.RevelationDays))
	}
	return next
}

// calendarMemo remembers the last week and the last AddDays a Calendar
// computed: consecutive posts mostly fall in one week and mature at one
// phase start. The week containing an instant is one of a tiling of
// Mondays' midnights, so the remembered week is the answer for any
// instant inside it.
type calendarMemo struct {
	monday, thursday, next time.Time
	week                   bool
	from                   time.Time
	days                   int
	to                     time.Time
	added                  bool
}

// phaseAt is c.PhaseAt(t).
func (m *calendarMemo) phaseAt(c Calendar, t time.Time) (Phase, time.Time, time.Time) {
	if !m.week || t.Before(m.monday) || !t.Before(m.next) {
		m.monday, m.thursday, m.next = c.weekOf(t)
		m.week = true
	}
	if t.Before(m.thursday) {
		return Auction, m.monday, m.thursday
	}
	return Bartering, m.thursday, m.next
}

// addDays is c.AddDays(t, n).
func (m *calendarMemo) addDays(c Calendar, t time.Time, n int) time.Time {
	if !m.added || t != m.from || n != m.days {
		m.from, m.days, m.to, m.added = t, n, c.AddDays(t, n), true
	}
	return m.to
}
