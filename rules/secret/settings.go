package secret

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Action types the rules of seed 004 define as secret actions.
const (
	// ActionBid is the action type of sealed bids on lots (seed 004, rule
	// "Auctions", subrule "Bidding"): channel #auctions, Auction Phase only.
	ActionBid = "bid"
	// ActionHand is the action type of Submitting a Hand (seed 004, rule
	// "Auctions", subrule "Submitting a Hand"): default channel, Auction
	// Phase only.
	ActionHand = "hand"
)

// Default values of Settings (seed 004, rule "Secret Information").
const (
	// DefaultChannel is the default channel of a secret action.
	DefaultChannel = "#game-actions"
	// AuctionsChannel is the channel of bids.
	AuctionsChannel = "#auctions"
	// DefaultRevelationDays is the default revelation offset in calendar
	// days after maturation ("three days after the maturation date", S5).
	DefaultRevelationDays = 3
	// DefaultGapThreshold is the default size of a gap between a post's
	// posted_at and its ledger integration time above which decisions show
	// the gap.
	DefaultGapThreshold = 10 * time.Minute
)

// MaturationRule says how a secret action's maturation date follows from the
// time of its post.
type MaturationRule int

const (
	// MatureAtNextPhase (the default, the zero value) matures an action at
	// the start of the next phase after its post (seed 004, rule "Secret
	// Information"; reading S5).
	MatureAtNextPhase MaturationRule = iota
	// MatureAfterDelay matures an action Settings.MaturationDelay after its
	// post, for rules that modify the default.
	MatureAfterDelay
)

// Settings are the properties of one secret action type (seed 004, rule
// "Secret Information": "a channel ..., a maturation date ..., a revelation
// date ..., subject to modification by the rule that defines the secret
// action"). A zero field means the action type's default (DefaultSettings):
// channel #game-actions (#auctions for bids), any phase (the Auction Phase
// for bids and Hands), maturation at the next phase start, revelation three
// calendar days after maturation at the same local time.
type Settings struct {
	// Channel is the channel the hash must be posted in; "" means the
	// type's default.
	Channel string `json:"channel"`
	// Phase is the only phase in which the action may be taken; NoPhase
	// means the type's default (any phase, except Auction for bids and
	// Hands).
	Phase Phase `json:"phase"`
	// Maturation is the maturation rule; MaturationDelay (>= 0) is used only
	// with MatureAfterDelay.
	Maturation      MaturationRule `json:"-"`
	MaturationDelay time.Duration  `json:"-"`
	// RevelationDays is the revelation offset in calendar days after the
	// maturation date, at the same local time; 0 means
	// DefaultRevelationDays. Must not be negative.
	RevelationDays int `json:"revelation_days"`
}

// DefaultSettings returns the settings seed 004 gives an action type: bids
// in #auctions during the Auction Phase, Hands in #game-actions during the
// Auction Phase, any other type in #game-actions in any phase; all with the
// default maturation and revelation dates.
func DefaultSettings(actionType string) Settings {
	switch actionType {
	case ActionBid:
		return Settings{Channel: AuctionsChannel, Phase: Auction, RevelationDays: DefaultRevelationDays}
	case ActionHand:
		return Settings{Channel: DefaultChannel, Phase: Auction, RevelationDays: DefaultRevelationDays}
	}
	return Settings{Channel: DefaultChannel, RevelationDays: DefaultRevelationDays}
}

// withDefaults fills the zero fields of s (channel, phase, revelation
// offset) with those of DefaultSettings(actionType).
func (s Settings) withDefaults(actionType string) Settings {
	d := DefaultSettings(actionType)
	if s.Channel == "" {
		s.Channel = d.Channel
	}
	if s.Phase == NoPhase {
		s.Phase = d.Phase
	}
	if s.RevelationDays == 0 {
		s.RevelationDays = d.RevelationDays
	}
	return s
}

// Validate reports settings no rule could mean: a negative revelation
// offset, a negative maturation delay, an unknown maturation rule or phase.
func (s Settings) Validate() error {
	switch {
	case s.RevelationDays < 0:
		return fmt.Errorf("revelation offset %d days: want 0 (default 3) or more", s.RevelationDays)
	case s.Maturation != MatureAtNextPhase && s.Maturation != MatureAfterDelay:
		return fmt.Errorf("maturation rule %d: want next phase (0) or after delay (1)", s.Maturation)
	case s.MaturationDelay < 0:
		return fmt.Errorf("maturation delay %v: want 0 or more", s.MaturationDelay)
	case s.Phase < NoPhase || s.Phase > Bartering:
		return fmt.Errorf("phase %d: want none, auction or bartering", s.Phase)
	}
	return nil
}

// Game is the configuration a judgement needs: the phase calendar, the
// settings of each action type and the gap threshold.
type Game struct {
	// Calendar is the phase calendar (zone default UTC).
	Calendar Calendar
	// Settings holds per action type the settings that differ from
	// DefaultSettings; zero fields and absent types take
	// DefaultSettings(type).
	Settings map[string]Settings
	// GapThreshold is how large a gap between posted_at and integration
	// time must be before decisions show it; 0 means DefaultGapThreshold.
	GapThreshold time.Duration
}

// SettingsFor returns the settings of actionType, defaults filled in.
func (g Game) SettingsFor(actionType string) Settings {
	if s, ok := g.Settings[actionType]; ok {
		return s.withDefaults(actionType)
	}
	return DefaultSettings(actionType)
}

// Validate checks every configured Settings and the gap threshold.
func (g Game) Validate() error {
	for t, s := range g.Settings {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("settings of action type %q: %w", t, err)
		}
	}
	if g.GapThreshold < 0 {
		return fmt.Errorf("gap threshold %v: want 0 (default 10m) or more", g.GapThreshold)
	}
	return nil
}

func (g Game) gapThreshold() time.Duration {
	if g.GapThreshold == 0 {
		return DefaultGapThreshold
	}
	return g.GapThreshold
}

// MaturationDate returns the maturation date of an action of type
// actionType posted at the instant posted (seed 004, rule "Secret
// Information"; reading S5).
func (g Game) MaturationDate(actionType string, posted time.Time) time.Time {
	s := g.SettingsFor(actionType)
	if s.Maturation == MatureAfterDelay {
		return posted.Add(s.MaturationDelay)
	}
	return g.Calendar.NextPhaseStart(posted)
}

// RevelationDate returns the revelation date of an action of type
// actionType that matures at the instant matured: RevelationDays calendar
// days later at the same local time in the calendar's zone (reading S5).
func (g Game) RevelationDate(actionType string, matured time.Time) time.Time {
	return g.Calendar.AddDays(matured, g.SettingsFor(actionType).RevelationDays)
}

// NotTaken reports whether an action of actionType posted in channel at the
// instant posted was never taken, and why: WrongChannel when channel is
// not the type's channel (seed 004, rule "Secret Information": "posting in
// the relevant channel"), WrongPhase when the type may be taken only in
// one phase and posted is in the other (bids and Hands "during an Auction
// Phase"; reading S5 for the calendar). It returns "" and "" when the
// action is taken. The text is the one the judge's failure gives.
func (g Game) NotTaken(actionType, channel string, posted time.Time) (Reason, string) {
	s := g.SettingsFor(actionType)
	// Concatenated, not formatted with fmt (the same bytes): every post
	// of a type taken in one phase only and posted in the other gets one.
	if channel != s.Channel {
		return WrongChannel, withArticle(actionType) + " action must be posted in " + s.Channel + ", not " + strconv.Quote(channel)
	}
	if ph, _, _ := g.Calendar.PhaseAt(posted); s.Phase != NoPhase && ph != s.Phase {
		return WrongPhase, withArticle(actionType) + " action may be taken only in the " + s.Phase.String() + " phase; it was posted in the " + ph.String() + " phase"
	}
	return "", ""
}

// withArticle returns word after its indefinite article: "an offer", "a
// bid". The article follows the first letter (a, e, i, o, u take "an"),
// which fits the action types' English names; it cannot know how a word
// is spoken ("an hour", "a unit").
func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
