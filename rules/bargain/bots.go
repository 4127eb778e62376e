package bargain

import (
	"fmt"
	"strings"
)

// View is what the seat to move may see (seed 002: never the opponent's
// values): the pool, its own values, the turn, and the offer standing
// against it.
type View struct {
	// Seat is the acting seat, 0..2.
	Seat int
	// Pool is the match's item counts.
	Pool Vector
	// Values are the acting seat's own per-item values.
	Values Vector
	// Turn is the 1-based turn to play and MaxTurns the match's limit.
	Turn, MaxTurns int
	// HasStanding reports that an offer stands against the seat; Receive is
	// then what the seat would receive by accepting it.
	HasStanding bool
	Receive     Vector
}

// Decision is a bot's action: accept the standing offer, or offer Take.
// Message and Notes are optional texts (at most 200 and 400 runes).
type Decision struct {
	Accept  bool
	Take    Vector
	Message string
	Notes   string
}

// Bot is a deterministic bargaining policy.
type Bot interface {
	// Name is the bot's name as given to BotByName.
	Name() string
	// Decide returns a legal action for v.
	Decide(v View) Decision
}

// BotNames lists the built-in bots, as BotByName accepts them.
var BotNames = []string{"greedy", "fair"}

// BotByName returns the built-in bot called name ("greedy" or "fair"). It
// returns an error naming the known bots otherwise.
func BotByName(name string) (Bot, error) {
	switch name {
	case "greedy":
		return Greedy{}, nil
	case "fair":
		return Fair{}, nil
	}
	return nil, fmt.Errorf("unknown bot %q; expected one of %s", name, strings.Join(BotNames, ", "))
}

// Greedy is a hard-line haggler: it holds out for 8 of its 10 points until
// its last turn of the match, when it settles for 3. It accepts a standing
// offer worth at least that much to it, and otherwise offers the cheapest
// take that reaches it (see haggle). It never sends a message.
type Greedy struct{}

// Name returns "greedy".
func (Greedy) Name() string { return "greedy" }

// Decide implements Bot.
func (Greedy) Decide(v View) Decision {
	r := 8
	if lastTurnOf(v) {
		r = 3
	}
	return haggle(v, r)
}

// Fair is a fair-split haggler: it asks for the whole pool on turn 1 and
// concedes linearly to half of it (5 of 10 in its own values) by the last
// turn, R(t) = 10 - round(5 (t-1) / (T-1)); on its last turn of the match
// it accepts anything worth 1 or more rather than let the match fall off
// the turn cliff. Its message says what its offer is worth to it, or
// "Deal." when it accepts.
type Fair struct{}

// Name returns "fair".
func (Fair) Name() string { return "fair" }

// Decide implements Bot.
func (Fair) Decide(v View) Decision {
	t1, T1 := v.Turn-1, v.MaxTurns-1
	r := PoolValue - (10*t1+T1)/(2*T1) // 10 - round(5*t1/T1), half up
	if lastTurnOf(v) {
		r = 1
	}
	d := haggle(v, r)
	if d.Accept {
		d.Message = "Deal."
	} else {
		d.Message = fmt.Sprintf("I ask for %d of my 10.", d.Take.Dot(v.Values))
	}
	return d
}

// lastTurnOf reports whether v's turn is the acting seat's last of the match.
func lastTurnOf(v View) bool { return v.Turn > v.MaxTurns-2 }

// haggle accepts a standing offer worth at least r to the seat; otherwise
// it offers, among the takes worth at least r, the one worth least, then
// with the fewest items, then lexicographically smallest. Taking the whole
// pool is worth 10 >= r, so an offer always exists.
func haggle(v View, r int) Decision {
	if v.HasStanding && v.Receive.Dot(v.Values) >= r {
		return Decision{Accept: true}
	}
	best, bestWorth := v.Pool, v.Pool.Dot(v.Values)
	for t0 := 0; t0 <= v.Pool[0]; t0++ {
		for t1 := 0; t1 <= v.Pool[1]; t1++ {
			for t2 := 0; t2 <= v.Pool[2]; t2++ {
				t := Vector{t0, t1, t2}
				w := t.Dot(v.Values)
				if w < r {
					continue
				}
				if w < bestWorth || (w == bestWorth && t.Sum() < best.Sum()) {
					best, bestWorth = t, w
				}
			}
		}
	}
	return Decision{Take: best}
}
