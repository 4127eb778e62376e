package verify

import "errors"

// CheckAuctionReplay re-simulates a Blind Auction replay. (Being written.)
func CheckAuctionReplay(data []byte) (*Report, error) {
	return nil, errors.New("auction replays are not supported yet")
}
