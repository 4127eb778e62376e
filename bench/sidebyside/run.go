package sidebyside

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Report is everything one Run measured.
type Report struct {
	Appends []AppendResult
	Audits  []AuditResult
	Sites   []SiteResult
}

// Run runs the parts cfg picks, printing to out as it goes: the machine
// and `uptime` first, each part's rounds, medians and ratios, and
// `uptime` again at the end. A system that loses an acknowledged append,
// an audit that does not pass, or a site that does not answer is an
// error.
func Run(ctx context.Context, cfg Config, out io.Writer) (*Report, error) {
	if cfg.WorkDir == "" {
		d, err := os.MkdirTemp("", "sidebyside-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		cfg.WorkDir = d
	}
	model, cpus := cpuModel()
	fmt.Fprintf(out, "sidebyside: sealed measured side by side with its anchors (issue 12)\n")
	fmt.Fprintf(out, "machine: %s, %d CPUs; %s %s/%s; temp dir %s\n", model, cpus, runtime.Version(), runtime.GOOS, runtime.GOARCH, cfg.WorkDir)
	fmt.Fprintf(out, "sealed: %s\n", sealedTree(ctx))
	fmt.Fprintf(out, "uptime before: %s\n", uptime())
	t0 := time.Now()
	rep := &Report{}
	var err error
	if cfg.Appends {
		if rep.Appends, err = runAppends(ctx, &cfg, out); err != nil {
			return rep, err
		}
	}
	if cfg.Audit {
		if rep.Audits, err = runAudit(ctx, &cfg, out); err != nil {
			return rep, err
		}
	}
	if cfg.Site {
		// The parts before leave this process's heap large (the audit's
		// leaves, a million of them); its memory is returned to the
		// system now, not by the background scavenger while serve starts
		// and its first answer is timed.
		debug.FreeOSMemory()
		if rep.Sites, err = runSite(ctx, &cfg, out); err != nil {
			return rep, err
		}
	}
	fmt.Fprintf(out, "\nuptime after: %s\n", uptime())
	fmt.Fprintf(out, "took %.0fs\n", time.Since(t0).Seconds())
	return rep, nil
}

// sealedTree names the working tree measured: its directory, commit and
// whether it has uncommitted changes.
func sealedTree(ctx context.Context) string {
	root, err := sealedRoot(ctx)
	if err != nil {
		return "the working tree (" + err.Error() + ")"
	}
	head, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return root
	}
	s := root + " at " + strings.TrimSpace(string(head))
	if st, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		s += " with uncommitted changes"
	}
	return s
}
