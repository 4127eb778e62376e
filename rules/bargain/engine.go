package bargain

import (
	"fmt"

	"github.com/sealedhq/sealed/rules/nimrand"
	"github.com/sealedhq/sealed/rules/rng"
)

// EngineProtocol is the "protocol" field of a replay written by the public
// Negotiation Games engine (github.com/Metta-AI/cogame-negotiation-games,
// ReplayProtocol in src/negotiation/sim.nim). It is the same name as
// ReplayFormat: the engine's dialect says it in "protocol" and carries an
// integer config.seed, sealed's says it in "format" and carries a 256-bit
// seed and its commitment (docs/replays.md).
const EngineProtocol = "negotiation.replay.v1"

// CogNames are the engine's ten seat aliases (CogNames in sim.nim), in the
// order its shuffle permutes them.
var CogNames = [10]string{"Sprocket", "Gizmo", "Ratchet", "Widget", "Bolt", "Piston", "Flywheel", "Rivet", "Tinker", "Gasket"}

// Engine seed limits: an engine seed is a non-negative integer small enough
// that seed*7919 + 17 fits in an int64 (the engine's initRand argument;
// Nim raises on the overflow). The engine itself picks seeds below 2^31.
const (
	MaxEngineSeed = (1<<63 - 1 - 17) / 7919
)

// EngineStreamSeed returns the argument of the engine's one initRand call
// for an episode seed: seed*7919 + 17 (initSim in sim.nim). It returns an
// error for a seed outside 0..MaxEngineSeed.
func EngineStreamSeed(seed int64) (int64, error) {
	if seed < 0 || seed > MaxEngineSeed {
		return 0, fmt.Errorf("engine seed %d is outside 0..%d (seed*7919+17 must fit in an int64)", seed, int64(MaxEngineSeed))
	}
	return seed*7919 + 17, nil
}

// nimSource adapts a Nim std/random stream to the draws of drawPoolValues:
// the engine draws a count as 1 + rand(3) and a valuation as
// table[rand(len-1)] (drawPool and drawValues in sim.nim).
type nimSource struct{ r *nimrand.Rand }

func (s nimSource) Range(lo, hi int) int { return lo + int(s.r.Rand(uint64(hi-lo))) }
func (s nimSource) Intn(n uint64) uint64 { return s.r.Rand(n - 1) }

// EngineDraw is everything the engine's seed decides for an episode.
type EngineDraw struct {
	// Names are the seat aliases: seat s plays as Names[s].
	Names [Seats]string
	// Plans are matches 0..matches-1, as DrawMatch describes them (seats,
	// opener, pool and values), drawn from the engine's stream.
	Plans []MatchPlan
}

// DrawEngine derives the aliases and the schedule of an engine episode from
// its integer seed, in the engine's order, from the one stream
// initRand(seed*7919 + 17) (nimrand): first the aliases (shuffle of
// CogNames; seat s gets element s), then for each match m in order its pool
// (three 1 + rand(3) counts, redrawn as a triple until the total is 5..7,
// at most 32 tries, else [3, 2, 2]) and its values (A = V[rand(|V|-1)],
// B likewise, redrawn at most 16 times while some item is worth 0 to both,
// then the first compatible entry of V). Seats and openers follow
// PairingFor. It returns an error for a seed outside 0..MaxEngineSeed or a
// negative match count.
func DrawEngine(seed int64, matches int) (EngineDraw, error) {
	var d EngineDraw
	if matches < 0 {
		return d, fmt.Errorf("match count %d is negative", matches)
	}
	d.Plans = make([]MatchPlan, matches)
	var r nimrand.Rand
	if err := drawEngineInto(&r, seed, &d.Names, d.Plans); err != nil {
		return EngineDraw{}, err
	}
	return d, nil
}

// drawEngineInto makes DrawEngine's draws into names and plans (len(plans)
// matches), reusing r.
func drawEngineInto(r *nimrand.Rand, seed int64, names *[Seats]string, plans []MatchPlan) error {
	s, err := EngineStreamSeed(seed)
	if err != nil {
		return err
	}
	r.Seed(s)
	cogs := CogNames
	r.Shuffle(len(cogs), func(i, j int) { cogs[i], cogs[j] = cogs[j], cogs[i] })
	copy(names[:], cogs[:Seats])
	src := nimSource{r}
	for m := range plans {
		p := &plans[m]
		p.Match = m
		p.Seats, p.Opener, _ = PairingFor(m) // m >= 0
		if p.Pool, p.Values, err = drawPoolValues(src); err != nil {
			return fmt.Errorf("engine pool of match %d: %w", m, err)
		}
	}
	return nil
}

// LabelEngineSeed labels the rules/rng stream an engine seed is derived
// from (docs/rng.md, docs/replays.md "A seed the engine can commit to").
const LabelEngineSeed = "negotiation-engine/seed"

// EngineSeed derives the engine's integer seed from a 32-byte sealed seed:
// the first uint32 of the rules/rng stream labelled LabelEngineSeed, with
// its top bit cleared, 0..2^31-1. That is the first four bytes, big-endian,
// of HMAC-SHA256(key = seed, msg = "negotiation-engine/seed" || 0x00 ||
// 8 zero bytes), AND 0x7fffffff. An operator commits to the 256-bit seed
// (its usual seed commitment), runs the engine with EngineSeed(seed), and
// reveals the 256-bit seed after the episode: the commitment cannot be
// brute-forced, and the engine's seed follows from the revealed one. It
// returns an error for a seed that is not 32 bytes.
func EngineSeed(seed []byte) (int64, error) {
	src, err := rng.NewSource(seed)
	if err != nil {
		return 0, fmt.Errorf("engine seed: %w", err)
	}
	return int64(src.Stream(LabelEngineSeed).Uint32() & 0x7fffffff), nil
}

// ResetEngine re-derives e in place for an engine episode with the given
// integer seed and config (DrawEngine), before its first match, and
// returns the seat aliases. It returns an error for an invalid config or a
// seed outside 0..MaxEngineSeed; e is then unusable until a successful
// Reset or ResetEngine.
func (e *Episode) ResetEngine(seed int64, cfg Config) ([Seats]string, error) {
	var names [Seats]string
	if err := cfg.Validate(); err != nil {
		return names, err
	}
	*e = Episode{cfg: cfg}
	if err := drawEngineInto(&e.rng, seed, &names, e.plans[:cfg.Matches]); err != nil {
		e.done = true
		return names, err
	}
	return names, nil
}
