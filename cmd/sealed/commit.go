package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() { register(newCommitCmd) }

// maxDeclaration bounds a declaration read from the command line or stdin.
const maxDeclaration = 64 << 10

// commitOptions are the inputs of `sealed commit`.
type commitOptions struct {
	Declaration string // the argument; "-" reads stdin
	Salt        string // --salt; empty means a fresh random salt
	SaltSet     bool
	Out         string // --out: write the reveal text there (mode 0600)
	Force       bool   // --force: overwrite --out
}

// newCommitCmd builds `sealed commit`.
func newCommitCmd(a *app) *cobra.Command { return commitCmd(a, runCommit) }

// commitCmd builds `sealed commit` with runF as its action, so tests can
// check the parsing alone.
func commitCmd(a *app, runF func(*app, *commitOptions) error) *cobra.Command {
	o := &commitOptions{}
	c := &cobra.Command{
		Use:   "commit [--salt S] [--out FILE] DECLARATION|-",
		Short: "Make a salted SHA-256 commitment to a secret action (docs/commitments.md)",
		Long: `Make a commitment to a secret action such as a sealed bid. The reveal text
is "<declaration>\nsalt: <salt>" with no trailing newline, the salt 128
random bits in base32 unless --salt gives one. Keep the reveal text secret
and post the commitment (its SHA-256); reveal the exact text later.

With - the declaration is read from stdin. From stdin or the argument
alike, one trailing newline (LF or CRLF) is dropped: 'sealed commit
"$(cat f)"' and 'sealed commit - < f' make the same reveal text.
With --out the reveal text is written to FILE with mode 0600 and only the
commitment is printed; with --out - (as everywhere in sealed, - is stdout
for an output and stdin for an input) the reveal text's exact bytes go to
stdout and the commitment to stderr. A weak --salt draws a warning with the estimated
number of guesses that would recover the declaration.`,
		Example: `  sealed commit 'I bid 40 on lot 2'
  h=$(sealed commit --out bid.txt 'I bid 40 on lot 2') && echo "post $h"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("commit needs one DECLARATION (or - to read it from stdin), got %d arguments", len(args)).
					withHint("quote the declaration: sealed commit 'I bid 40 on lot 2'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Declaration = args[0]
			o.SaltSet = cmd.Flags().Changed("salt")
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Salt, "salt", "", "use this salt instead of 128 random bits (not recommended)")
	c.Flags().StringVarP(&o.Out, "out", "o", "", "write the reveal text to `FILE` (mode 0600; - for stdout) and print only the commitment")
	c.Flags().BoolVar(&o.Force, "force", false, "overwrite the --out file if it exists")
	return c
}

// commitJSON is the --json output of `sealed commit`. With --out the secret
// parts (declaration, salt, reveal) are left out.
type commitJSON struct {
	Commitment  string            `json:"commitment"`
	Declaration string            `json:"declaration,omitempty"`
	Salt        string            `json:"salt,omitempty"`
	Reveal      string            `json:"reveal,omitempty"`
	Out         string            `json:"out,omitempty"`
	SaltAudit   *commit.SaltAudit `json:"salt_audit,omitempty"`
}

// runCommit makes the reveal text and prints it with its commitment.
func runCommit(a *app, o *commitOptions) error {
	decl := o.Declaration
	if decl == "-" {
		b, err := readDeclaration(a.in)
		if err != nil {
			return err
		}
		decl = b
	} else {
		decl = dropFinalNewline(decl)
	}
	if err := checkDeclaration(decl); err != nil {
		return err
	}
	salt := o.Salt
	var audit *commit.SaltAudit
	if o.SaltSet {
		if err := checkSalt(salt); err != nil {
			return err
		}
	} else {
		var err error
		if salt, err = commit.NewSalt(); err != nil {
			return fmt.Errorf("cannot draw a salt: %v", err)
		}
	}
	reveal := commit.RevealText(decl, salt)
	if err := checkRevealFits(reveal); err != nil {
		return err
	}
	c := commit.Sum(reveal)
	if o.SaltSet {
		sa := commit.AuditSalt(reveal)
		audit = &sa
		if sa.Weak {
			fmt.Fprintf(a.errOut, "warning: weak salt: about %s guesses recover this declaration from its commitment; drop --salt to get 128 random bits\n", guessesText(sa.GuessesLog2))
		}
	}
	if o.Out == stdioName {
		if a.json {
			return usageErrorf("--out - writes the reveal text to stdout, where --json would print too").
				withHint("drop --json, or give --out a file")
		}
		if _, err := a.out.Write(reveal); err != nil {
			return err
		}
		_, err := fmt.Fprintf(a.errOut, "commitment (post this):\n%s\n", c)
		return err
	}
	if o.Out != "" {
		if err := writeSecretFile(o.Out, reveal, o.Force); err != nil {
			return err
		}
		fmt.Fprintf(a.errOut, "reveal text written to %s (mode 0600): keep it secret until the reveal\n", o.Out)
		if a.json {
			return a.printJSON(commitJSON{Commitment: c.String(), Out: o.Out, SaltAudit: auditWithoutSecrets(audit)})
		}
		_, err := fmt.Fprintln(a.out, c)
		return err
	}
	if a.json {
		return a.printJSON(commitJSON{Commitment: c.String(), Declaration: decl, Salt: salt, Reveal: string(reveal), SaltAudit: audit})
	}
	_, err := fmt.Fprintf(a.out, "reveal text (keep it secret; reveal these exact bytes, no trailing newline):\n%s\n\ncommitment (post this):\n%s\n", reveal, c)
	return err
}

// auditWithoutSecrets returns a copy of sa without the declaration and salt.
func auditWithoutSecrets(sa *commit.SaltAudit) *commit.SaltAudit {
	if sa == nil {
		return nil
	}
	s := *sa
	s.Declaration, s.Salt = "", ""
	return &s
}

// readDeclaration reads a declaration from stdin: at most maxDeclaration
// bytes, one trailing LF or CRLF dropped.
func readDeclaration(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxDeclaration+1))
	if err != nil {
		return "", usageErrorf("cannot read the declaration from stdin: %v", err)
	}
	if len(b) > maxDeclaration {
		return "", usageErrorf("declaration on stdin is longer than %d bytes; expected a short text such as 'I bid 40 on lot 2'", maxDeclaration)
	}
	return dropFinalNewline(string(b)), nil
}

// dropFinalNewline drops one trailing LF or CRLF from a declaration, given
// as the argument or on stdin alike: the reveal text adds its own line
// break before "salt:".
func dropFinalNewline(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return s
}

// checkDeclaration refuses declarations that would make a bad reveal text.
func checkDeclaration(d string) error {
	switch {
	case strings.TrimSpace(d) == "":
		return usageErrorf("empty declaration; expected the action to commit to, such as 'I bid 40 on lot 2'")
	case len(d) > maxDeclaration:
		return usageErrorf("declaration is longer than %d bytes; expected a short text", maxDeclaration)
	case !utf8.ValidString(d):
		return usageErrorf("declaration is not valid UTF-8 (bad byte at offset %d); expected UTF-8 text", invalidUTF8At(d))
	}
	if l, ok := commit.FindSaltLine(d); ok {
		where := "the declaration starts"
		if l.Number > 1 {
			where = fmt.Sprintf("declaration line %d (after the line break %s) starts", l.Number, l.After)
		}
		return usageErrorf("%s with %q: a line starting with \"salt:\" in any letter case would make the reveal text ambiguous", where, l.Prefix).
			withHint("give only the declaration: sealed commit adds the line \"salt: <salt>\" itself (lines end at LF, CR, CRLF, VT, FF, U+0085, U+2028 and U+2029)")
	}
	return nil
}

// checkRevealFits refuses a reveal text whose reveal entry could not be
// recorded: its leaf, with the other members at their largest
// (ledger.RevealLeafSize), would be longer than ledger.MaxLeafSize.
func checkRevealFits(reveal []byte) error {
	n := ledger.RevealLeafSize(reveal)
	if n <= ledger.MaxLeafSize {
		return nil
	}
	return usageErrorf("the reveal text would need a ledger leaf of up to %d bytes, more than the %d a leaf can hold (docs/ledger.md \"Tiles\"): its reveal could never be recorded", n, ledger.MaxLeafSize).
		withHint("shorten the declaration so that its reveal takes %d %s fewer in the leaf, where a control character takes 6 bytes and a line break, tab, quote or backslash 2", n-ledger.MaxLeafSize, plural(n-ledger.MaxLeafSize, "byte", "bytes"))
}

// checkSalt refuses salts that break the reveal text format or are easy to
// lose when copied.
func checkSalt(s string) error {
	switch {
	case s == "":
		return usageErrorf("empty --salt; the rule needs at least one byte of salt").withHint("drop --salt to get 128 random bits")
	case strings.ContainsAny(s, commit.LineBreaks):
		return usageErrorf("--salt has a line break; the salt is the rest of the reveal text's last line").
			withHint("give a salt on one line, without LF, CR, VT, FF, U+0085, U+2028 or U+2029, or drop --salt to get 128 random bits")
	case !utf8.ValidString(s):
		return usageErrorf("--salt is not valid UTF-8 (bad byte at offset %d)", invalidUTF8At(s))
	case strings.TrimSpace(s) != s:
		return usageErrorf("--salt starts or ends with whitespace, which is easily lost when copied")
	}
	return nil
}

func invalidUTF8At(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// writeSecretFile writes data to path with mode 0600. It refuses to replace
// an existing file unless force is set; a replaced file is set to 0600.
func writeSecretFile(path string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return usageErrorf("%s exists; refusing to overwrite a secret", path).withHint("choose another --out file, or add --force")
	}
	if err != nil {
		return usageErrorf("cannot write %s: %v", path, unwrapPathError(err))
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return usageErrorf("cannot set the mode of %s: %v", path, unwrapPathError(err))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return usageErrorf("cannot write %s: %v", path, unwrapPathError(err))
	}
	if err := f.Close(); err != nil {
		return usageErrorf("cannot write %s: %v", path, unwrapPathError(err))
	}
	return nil
}

// unwrapPathError drops the "open PATH:" part of a *fs.PathError, which the
// messages already name.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// guessesText writes 2^log2 as "2^21.6 (3.3e+06)".
func guessesText(log2 float64) string {
	if log2 > 1000 {
		return fmt.Sprintf("2^%.1f", log2)
	}
	return fmt.Sprintf("2^%.1f (%.2g)", log2, math.Exp2(log2))
}
