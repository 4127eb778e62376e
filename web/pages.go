package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// hashView is the /hash page's data.
type hashView struct {
	// PhaseNote says when a bid counts (PhaseNote for "bid" at the
	// server's now): a hash posted outside the Auction Phase fails.
	PhaseNote string
	// MaxLeaf is the largest leaf the ledger appends
	// (ledger.MaxLeafSize); LeafOverhead is what a reveal's leaf holds
	// besides the text's JSON string, its quotes excluded, with every
	// other member at its largest (ledger.RevealLeafSize of an empty
	// text, less 2). hash.js refuses a declaration whose reveal would not
	// fit, as `sealed commit` does.
	MaxLeaf, LeafOverhead int
}

// revealLeafOverhead is hashView.LeafOverhead: the leaf of a reveal of an
// empty text less its "" (the text's JSON string is added back in hash.js).
var revealLeafOverhead = ledger.RevealLeafSize(nil) - len(`""`)

// hashPage is GET /hash: the in-browser hashing page (static/hash.js).
// Its inputs have no name attribute, so even a submission without script
// would carry none of the text. It says when a bid counts (PhaseNote).
func (s *Server) hashPage(c echo.Context) error {
	return c.Render(http.StatusOK, "hash", hashView{
		PhaseNote:    PhaseNote(s.o.Game, secret.ActionBid, s.o.Now()),
		MaxLeaf:      ledger.MaxLeafSize,
		LeafOverhead: revealLeafOverhead,
	})
}
