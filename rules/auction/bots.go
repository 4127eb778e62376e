package auction

import (
	"fmt"
	"strings"

	"github.com/sealedhq/sealed/rules/rng"
)

// View is what a bot sees on its turn (a subset of seed 000's
// visible_state): whose turn it is, its own value for the item, its credits
// and profit so far, and the table's config.
type View struct {
	Turn    Turn
	Value   int
	Credits int
	Profit  int
	Config  *Config
}

// Bot chooses a seat's action on its turn. Act returns the action for
// v.Turn (its Seat is filled in by Play); an illegal action is played as a
// timeout.
type Bot interface {
	Name() string
	Act(v View) Action
}

// BotNames lists the built-in bots NewBot knows, in the order of the docs.
var BotNames = []string{"truthful", "shading", "random", "idle"}

// NewBot returns the built-in bot called name for seat:
//
//	truthful  says its value in the talk phase and bids it (capped at its credits)
//	shading   passes and bids 3/4 of its value, rounded down (capped)
//	random    says or passes at random and bids uniformly in 0..min(credits, value_max)
//	idle      misses every turn (each a timeout)
//
// The random bot draws from the stream "sealed-bots/random/<seat>" of the
// match seed (docs/rng.md), so a play is reproducible from the seed; that
// stream is not part of the rules. It returns an error naming the known
// bots for an unknown name, or for a seed that is not 32 bytes.
func NewBot(name string, seed []byte, seat int) (Bot, error) {
	switch name {
	case "truthful":
		return truthful{}, nil
	case "shading":
		return shading{}, nil
	case "random":
		s, err := rng.New(seed, fmt.Sprintf("sealed-bots/random/%d", seat))
		if err != nil {
			return nil, fmt.Errorf("seed is %d bytes, expected %d", len(seed), rng.SeedSize)
		}
		return &random{s: s}, nil
	case "idle":
		return idle{}, nil
	}
	return nil, fmt.Errorf("unknown bot %q, expected one of %s", name, strings.Join(BotNames, ", "))
}

type truthful struct{}

func (truthful) Name() string { return "truthful" }
func (truthful) Act(v View) Action {
	if v.Turn.Phase == PhaseTalk {
		return Action{Kind: Say, Message: fmt.Sprintf("Item %d is worth %d to me.", v.Turn.Item, v.Value)}
	}
	return Action{Kind: Bid, Amount: min(v.Value, v.Credits)}
}

type shading struct{}

func (shading) Name() string { return "shading" }
func (shading) Act(v View) Action {
	if v.Turn.Phase == PhaseTalk {
		return Action{Kind: Pass}
	}
	return Action{Kind: Bid, Amount: min(v.Value*3/4, v.Credits)}
}

type random struct{ s *rng.Stream }

var randomLines = []string{"Not interested in this one.", "I want this one.", "Bidding high.", "Maybe."}

func (*random) Name() string { return "random" }
func (r *random) Act(v View) Action {
	if v.Turn.Phase == PhaseTalk {
		if r.s.Intn(2) == 0 {
			return Action{Kind: Pass}
		}
		return Action{Kind: Say, Message: randomLines[r.s.Intn(uint64(len(randomLines)))]}
	}
	return Action{Kind: Bid, Amount: r.s.Range(0, min(v.Credits, v.Config.ValueMax))}
}

type idle struct{}

func (idle) Name() string    { return "idle" }
func (idle) Act(View) Action { return Action{Kind: Timeout} }
