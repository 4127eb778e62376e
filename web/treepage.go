package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"golang.org/x/mod/sumdb/note"
)

// treeView is the data of /tree: the latest checkpoint explained.
type treeView struct {
	Checkpoint *ledger.Checkpoint
	// Signer is the log's own signature (its key name and key hash);
	// Cosignatures are the other signature lines of the note (witnesses,
	// C2SP tlog-cosignature), which this site does not verify.
	Signer       *sigLine
	Cosignatures []sigLine
	VerifierKey  string
}

// sigLine is one signature line of a signed note: the key's name and its
// 4-byte key hash (C2SP signed-note), as hex.
type sigLine struct {
	Name string
	Hash uint32
}

// treePage is GET /tree: the latest signed checkpoint explained (origin,
// tree size, root hash, signing time, the log's signature checked with its
// verifier key, and any cosignatures), with a link to the raw note, which
// stays at /checkpoint (text/plain, as tlog-tiles expects there).
func (s *Server) treePage(c echo.Context) error {
	cp, err := s.o.Reader.LatestCheckpoint()
	if errors.Is(err, ledger.ErrNotFound) {
		return notFound("the ledger has no checkpoint yet")
	}
	if err != nil {
		return err
	}
	v := treeView{Checkpoint: cp, VerifierKey: s.o.Reader.VerifierKey()}
	if vk, err := note.NewVerifier(v.VerifierKey); err == nil {
		n, err := note.Open([]byte(cp.Note), note.VerifierList(vk))
		var unverified *note.UnverifiedNoteError
		if errors.As(err, &unverified) {
			n = unverified.Note
		}
		if n != nil {
			for _, sg := range n.Sigs {
				v.Signer = &sigLine{Name: sg.Name, Hash: sg.Hash}
			}
			for _, sg := range n.UnverifiedSigs {
				v.Cosignatures = append(v.Cosignatures, sigLine{Name: sg.Name, Hash: sg.Hash})
			}
		}
	}
	return c.Render(http.StatusOK, "tree", v)
}

// readingsPage is GET /readings: the readings of the ambiguous rules
// (rules/secret.Readings), each with an anchor (#S1..#S8) that the
// decisions on the commitment pages link by name.
func (s *Server) readingsPage(c echo.Context) error {
	return c.Render(http.StatusOK, "readings", secret.Readings)
}
