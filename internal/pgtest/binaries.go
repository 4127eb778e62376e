package pgtest

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// debianRoot is where Debian's postgresql-VERSION packages install the server
// binaries, one VERSION/bin directory per major version.
const debianRoot = "/usr/lib/postgresql"

// installHint says how to get the binaries; it ends the error that tests
// skip or fail with when they are missing.
const installHint = "install them with: apt-get install postgresql"

// binaries holds the absolute paths of the server programs pgtest runs.
type binaries struct {
	initdb   string
	postgres string
}

// notInstalledError reports that initdb or postgres could not be found;
// [Start] and [Shared] skip the test on it (or fail it under CI=true).
type notInstalledError struct {
	searched string // where the lookup looked, for the message
}

func (e *notInstalledError) Error() string {
	return fmt.Sprintf("pgtest: PostgreSQL server binaries (initdb, postgres) not found on PATH or in %s; %s",
		e.searched, installHint)
}

// findBinaries looks for initdb and postgres on PATH, then in the highest
// version of root/VERSION/bin. Both must come from the same directory so
// that initdb and postgres agree on the version. It returns a
// *notInstalledError when no directory holds both.
func findBinaries(root string) (binaries, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if b, ok := inDir(filepath.Dir(p)); ok {
			return b, nil
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "bin"))
	slices.SortFunc(dirs, func(a, b string) int {
		// Highest version first.
		return compareVersions(filepath.Base(filepath.Dir(b)), filepath.Base(filepath.Dir(a)))
	})
	for _, d := range dirs {
		if b, ok := inDir(d); ok {
			return b, nil
		}
	}
	return binaries{}, &notInstalledError{searched: filepath.Join(root, "*", "bin")}
}

// inDir reports the binaries in dir if both initdb and postgres are there
// and executable.
func inDir(dir string) (binaries, bool) {
	b := binaries{initdb: filepath.Join(dir, "initdb"), postgres: filepath.Join(dir, "postgres")}
	for _, p := range []string{b.initdb, b.postgres} {
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			return binaries{}, false
		}
	}
	return b, true
}

// compareVersions compares PostgreSQL version directory names such as "9.6",
// "10" and "15" numerically, part by dot-separated part, so that "15" sorts
// above "9.6". A part that is not a number sorts below every number; two
// such parts compare as strings. It returns -1, 0 or +1.
func compareVersions(a, b string) int {
	ap, bp := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(ap), len(bp)); i++ {
		if i >= len(ap) {
			return -1
		}
		if i >= len(bp) {
			return +1
		}
		an, aerr := strconv.Atoi(ap[i])
		bn, berr := strconv.Atoi(bp[i])
		switch {
		case aerr == nil && berr == nil:
			if c := cmp.Compare(an, bn); c != 0 {
				return c
			}
		case aerr == nil:
			return +1
		case berr == nil:
			return -1
		default:
			if c := strings.Compare(ap[i], bp[i]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// isNotInstalled reports whether err says the binaries are missing.
func isNotInstalled(err error) bool {
	var e *notInstalledError
	return errors.As(err, &e)
}
