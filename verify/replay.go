package verify

import (
	"encoding/json"
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
// replay it can read (not JSON, unknown format, missing or malformed
// fields); differences between claim and derivation are in the report.
func CheckReplay(data []byte) (*Report, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("replay is not a JSON object: %v", err)
	}
	switch head.Format {
	case FormatAuction:
		return CheckAuctionReplay(data)
	case FormatBargain:
		return CheckBargainReplay(data)
	case "":
		return nil, fmt.Errorf("replay has no \"format\" field; expected %q or %q", FormatAuction, FormatBargain)
	default:
		return nil, fmt.Errorf("unknown replay format %q; expected %q or %q", head.Format, FormatAuction, FormatBargain)
	}
}
