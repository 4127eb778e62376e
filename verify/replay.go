package verify

import (
	"fmt"

	"github.com/sealedhq/sealed/rules/auction"
)

// Replay format names, the value of a replay's top-level "format" field.
const (
	// FormatAuction is a Blind Auction (auction-0.2) replay,
	// "sealed.auction.replay.v1" (auction.ReplayFormat).
	FormatAuction = auction.ReplayFormat
	// FormatBargain is a Negotiation Games replay (negotiation.replay.v1).
	FormatBargain = "negotiation.replay.v1"
)

// CheckReplay re-simulates a replay of either game, chosen by its "format"
// field, and returns the report. It returns an error only when data is not a
// replay it can read (not a JSON object, a leading UTF-8 byte order mark, a
// duplicate or unknown key, unknown format, missing or malformed fields,
// a malformed seed or seed commitment: docs/replays.md, "Reading a
// replay"); differences between claim and derivation are in the report.
func CheckReplay(data []byte) (*Report, error) {
	format, err := replayFormat(data)
	if err != nil {
		return nil, err
	}
	if format != FormatAuction && format != FormatBargain {
		// About to blame the format: first make sure the replay is
		// well-formed JSON without a second "format" key.
		if err := checkSyntax(data); err != nil {
			return nil, err
		}
	}
	switch format {
	case FormatAuction:
		return CheckAuctionReplay(data)
	case FormatBargain:
		return CheckBargainReplay(data)
	case "":
		return nil, fmt.Errorf("replay has no \"format\" field; expected %q or %q", FormatAuction, FormatBargain)
	default:
		return nil, fmt.Errorf("unknown replay format %q; expected %q or %q", format, FormatAuction, FormatBargain)
	}
}
