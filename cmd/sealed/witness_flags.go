package main

import (
	"errors"
	"net/http"
	"strings"

	"github.com/sealedhq/sealed/ledger/tlogclient"
	"github.com/sealedhq/sealed/ledger/witness"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// policyFlags are the witness policy flags of the verbs that check
// cosignatures: --witness VKEY (repeatable), --quorum N, --witnesses FILE.
type policyFlags struct {
	Keys   []string
	Quorum int
	File   string
	flags  *pflag.FlagSet // to tell a --quorum given from none
}

func (p *policyFlags) add(c *cobra.Command) {
	p.flags = c.Flags()
	c.Flags().StringArrayVar(&p.Keys, "witness", nil, "require cosignatures by the witness with verifier `KEY` (repeatable)")
	c.Flags().IntVar(&p.Quorum, "quorum", 0, "how many of the witnesses must cosign (default: all given)")
	c.Flags().StringVar(&p.File, "witnesses", "", "read the witness policy from `FILE` (lines: witness VKEY [URL], quorum N)")
}

// quorumSet reports whether --quorum was given.
func (p *policyFlags) quorumSet() bool { return p.flags != nil && p.flags.Changed("quorum") }

// policy returns the policy the flags give for the log whose verifier key
// is vkey ("" when not known yet: then notLog checks it once it is), or
// nil when none was given.
func (p *policyFlags) policy(a *app, vkey string) (*witness.Policy, error) {
	if p.File != "" && len(p.Keys) > 0 {
		return nil, usageErrorf("give the witnesses with --witness KEY or --witnesses FILE, not both")
	}
	var pol *witness.Policy
	switch {
	case p.File != "":
		b, err := readInput(a, p.File, 1<<20)
		if err != nil {
			return nil, err
		}
		pol, err = witness.ParsePolicy(b)
		if err != nil {
			return nil, usageErrorf("%s: %v", p.File, err)
		}
	case len(p.Keys) > 0:
		pol = &witness.Policy{Quorum: len(p.Keys)}
		for _, k := range p.Keys {
			w, err := witness.NewWitness(strings.TrimSpace(k), "")
			if err != nil {
				return nil, usageErrorf("--witness: %v", err)
			}
			pol.Witnesses = append(pol.Witnesses, w)
		}
	default:
		if p.quorumSet() && p.Quorum != 0 {
			return nil, usageErrorf("--quorum %d needs the witnesses' keys: --witness KEY or --witnesses FILE", p.Quorum).
				withHint("give each witness's verifier key with --witness KEY")
		}
		return nil, nil
	}
	if p.quorumSet() {
		if err := pol.SetQuorum(p.Quorum); err != nil {
			e := usageErrorf("--%v", err)
			if p.Quorum > 0 {
				e = e.withHint("name more witnesses, or give a lower --quorum (without it, every witness given must cosign)")
			}
			return nil, e
		}
	}
	if err := notLog(pol, vkey); err != nil {
		return nil, err
	}
	return pol, nil
}

// notLog refuses (exit 2) a policy naming the log's own key, vkey, as a
// witness's (witness.Policy.CheckNotLog).
func notLog(pol *witness.Policy, vkey string) error {
	if err := pol.CheckNotLog(vkey); err != nil {
		return usageErrorf("%v", err).
			withHint("give --witness the key each witness prints (litewitness's verifier key), not the log's")
	}
	return nil
}

// remoteErr maps a tlogclient error: a failed check exits 1, as does a
// log that cannot be read (the log is not serving what it must), with the
// log's own explanation when it answered; an index the log's checkpoint
// does not cover is bad input (exit 2), as it is for a local ledger.
func remoteErr(what string, err error) error {
	var ce *tlogclient.CheckError
	if errors.As(err, &ce) {
		return failedf("%s failed: %v", what, ce)
	}
	var re *tlogclient.RangeError
	if errors.As(err, &re) {
		if re.Size == 0 {
			return usageErrorf("%v", re).withHint("the log is empty: prove an entry once a checkpoint covers it")
		}
		return usageErrorf("%v", re).withHint("give an index below %d, the log's checkpoint size", re.Size)
	}
	var se *tlogclient.StatusError
	if errors.As(err, &se) && se.Code == http.StatusConflict {
		// The log answers, and refuses to serve data its signed
		// checkpoint does not cover: the URL is right, the log is not.
		return failedf("%s failed: %s", what, terminalSafe(se.Error())).
			withHint("the log refuses to serve what its signed checkpoint does not cover; its operator should run 'sealed ledger audit' on its database")
	}
	if errors.As(err, &se) {
		err = errors.New(terminalSafe(se.Error()))
	}
	return failedf("%s failed: %v", what, err).withHint("check the URL and that the log serves /checkpoint and /tile/ (C2SP tlog-tiles)")
}

// checkURL refuses a URL that is not http(s).
func checkURL(u string) error {
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return usageErrorf("--url %q: expected the log's http:// or https:// prefix", u)
	}
	return nil
}
